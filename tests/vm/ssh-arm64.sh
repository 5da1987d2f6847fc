#!/bin/sh
# VM test (make check VM=ssh-arm64, and the end of make check VM=ssh where
# scripts/install-deps --arm64 ran; never in CI): --target against an arm64
# board VM (scripts/board-vm --arch arm64: QEMU virt booted with -kernel
# and -dtb, as a bootloader passes a board its tree). The area of each run
# must come from the board's own device tree with our node added (libfdt),
# booted through kexec --dtb: a CMA and a GCMA run of a tiny allocation
# sweep end to end, the trees kept with the results, the kernel's own
# reserved-memory lines, the board back in its own kernel. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
top=$(cd "$here/../.." && pwd)
if [ "${CMABENCH_ARM64:-no}" != yes ]; then
	ok "arm64 board VM # SKIP arm64 guests are not configured (scripts/install-deps --arm64, then ./configure)"
	exit 0
fi

vm_test
bvm64=$res/board-arm64
board_vm() { CMABENCH=$CMABENCH "$top/scripts/board-vm" "$@"; }
on64() { ssh -F "$bvm64/ssh_config" board "$@"; }
cleanup64() { board_vm stop "$bvm64" > /dev/null 2>&1; rm -rf "$res"; }
trap cleanup64 EXIT
trap 'cleanup64; exit 130' INT TERM

board_vm image "$bvm64" --arch arm64 > "$res/board64-image.log" 2>&1
check "the arm64 board VM's disk was made" [ -s "$bvm64/board.img" ]
board_vm start "$bvm64" --mem 2048 > "$res/board64-start.log" 2>&1
check "the arm64 board VM answers ssh" on64 true
check "it runs an arm64 kernel booted with a device tree" \
	sh -c "ssh -F '$bvm64/ssh_config' board 'uname -m; test -r /sys/firmware/fdt && echo fdt' |
		tr '\n' ' ' | grep -qx 'aarch64 fdt '"

out=$("$CMABENCH" target check --ssh-config "$bvm64/ssh_config" ssh://board 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
check "target check passes on the arm64 board VM (exit $rc)" [ "$rc" -eq 0 ]
# shellcheck disable=SC2016 # the inner shell's arguments
check "it found the board's device tree" sh -c 'echo "$1" | grep -q "^  ok *device tree "' _ "$out"

# --- a CMA and a GCMA run of a tiny sweep, the areas in the board's tree
# its own results root: ssh.sh, which sources this, has a latency-sweep of its own in $res
mkdir -p "$res/arm64"
"$CMABENCH" run --target ssh://board --ssh-config "$bvm64/ssh_config" --results "$res/arm64" \
	--only cma,gcma --set arch=arm64 --set repeat=1 --set alloc-count=1 \
	--set alloc-pages=1,512 --set fio-size=128M --set warmup=2s latency-sweep \
	> "$res/sweep64.log" 2>&1
rc=$?
sed 's/^/# /' "$res/sweep64.log" | tail -n 10
dir=$(first "$res"/arm64/latency-sweep-*)
# node_has DTS NODE WORDS...: the /reserved-memory child NODE of the
# decompiled tree DTS has every one of WORDS (a missing node has none)
node_has() {
	_nh_f=$1 _nh_n=$2
	shift 2
	awk "/^\t\t$_nh_n \{/,/\};/" "$_nh_f" > "$res/node.txt" 2> /dev/null || return 1
	for _nh_w in "$@"; do
		grep -qF "$_nh_w" "$res/node.txt" || return 1
	done
}
# node_lacks DTS NODE WORD: that node is there, reusable, without WORD
node_lacks() {
	node_has "$1" "$2" 'reusable;' && ! grep -qF "$3" "$res/node.txt"
}
check "the arm64 sweep through --target succeeded (exit $rc)" [ "$rc" -eq 0 ]
for s in cma gcma; do
	r=$dir/runs/$s-r1
	node=reserved
	[ "$s" = cma ] || node=gcma
	check "$s: run status is ok" grep -qx ok "$r/status"
	sizes=$(awk -F, 'NR > 1 && $6 == 1 { printf "%s ", $3 }' "$r/alloc.csv" 2>/dev/null)
	check "$s: one successful request per size (got: $sizes)" [ "$sizes" = "1 512 " ]
	check "$s: the run's tree is kept, its area node a reusable shared-dma-pool" \
		node_has "$r/devicetree.dts" "$node" 'compatible = "shared-dma-pool"' 'reusable;'
	check "$s: the tree is the board's own (its virtio-mmio or PCI nodes kept)" \
		grep -qE 'virtio_mmio@|pcie@' "$r/devicetree.dts"
	check "$s: no area on the command line" \
		sh -c "grep -o '\"board_cmdline\": *\"[^\"]*\"' '$r/metadata.json' | grep -qv 'cma='"
	check "$s: the kernel initialized the tree's $node node" \
		grep -q "OF: reserved mem: initialized node $node, compatible id shared-dma-pool" \
		"$r/console.log"
	check "$s: the board came back in its own kernel" \
		grep -q '"board_returned_to"' "$r/metadata.json"
done
check "gcma: its node has guarantee" node_has "$dir/runs/gcma-r1/devicetree.dts" gcma 'guarantee;'
check "gcma: the tree's area registered as a cleancache backend" \
	grep -q "cleancache: registered 'gcma' backend" "$dir/runs/gcma-r1/console.log"
check "cma: its node has no guarantee" node_lacks "$dir/runs/cma-r1/devicetree.dts" reserved guarantee
check "the arm64 board runs its own kernel again" \
	sh -c "! ssh -F '$bvm64/ssh_config' board cat /proc/cmdline | grep -q cmabench.run"
check "nothing of ours is left on the arm64 board" \
	sh -c "! ssh -F '$bvm64/ssh_config' board ls -d /var/tmp/cmabench > /dev/null 2>&1"
