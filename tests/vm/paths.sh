#!/bin/sh
# VM test of the allocation paths (alloc-path; workloads/guest/alloc-path.h):
# the alloc-paths scenario boots the gcma kernel with a cma area and with a
# gcma area made the default one, and its guest script asks each through
# the DMA-BUF heap, the DMA API (our module) and debugfs at alignments 0
# and 3 (workloads/guest/scripts/alloc-paths.sh). Checks: the heap is the
# area's; cma_alloc_start carried alignment 8 (CONFIG_CMA_ALIGNMENT) for
# the device paths' 1024- and 8192-page requests and the configured one on
# debugfs; every buffer of the device paths read zero; nothing stayed
# allocated; a dma request that the held area cannot serve is a failure.
# PATHS_ARCH=arm64 (tests/vm/gcma-arm64.sh): on arm64 guests, whose areas
# come from the device tree and whose dma device is bound to its area
# through memory-region, as the seeds bind one. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
PARCH=${PATHS_ARCH:-x86_64}
"$CMABENCH" run --results "$res/paths" --set "arch=$PARCH" alloc-paths
rc=$?
dir=$(first "$res"/paths/alloc-paths-*)
# x86 binds no device to an area: ours allocates from the default one
bound="the default area"
[ "$PARCH" = arm64 ] && bound="its memory-region"
check "cmabench run alloc-paths ($PARCH) succeeded (exit $rc)" [ "$rc" -eq 0 ]

# "B->A" of paths-used.csv: the area's used pages back where they were
same_used() { [ -n "$1" ] && [ "${1%->*}" = "${1#*->}" ]; }

# the alignments cma_alloc_start carried for 1024 and 8192 pages, "1024:A 8192:B"
aligns() {
	[ -r "$1" ] || return 0
	awk -F, '$1 == 1024 || $1 == 8192 { printf "%s%s:%s", s, $1, $2; s = " " }' "$1"
}

for s in cma gcma; do
	run="$dir/runs/$s-r1"
	# the area's name: cma='s is "reserved"
	area=$s
	[ $s = cma ] && area=reserved
	check "$s: the run ended ok ($(val "$run/status"))" grep -qx ok "$run/status"
	check "$s: cmabench_dma.ko loaded" grep -q 'cmabench-init: cmabench_dma loaded' "$run/console.log"
	check "$s: the dma device allocates from $bound" grep -q "allocating from $bound" "$run/console.log"
	check "$s: the heap is the area's ($(tr '\n' ' ' < "$run/paths-heaps" 2>/dev/null))" \
		grep -qx "$area" "$run/paths-heaps"
	for p in heap dma; do
		a=$(aligns "$run/paths-align-$p.csv")
		check "$s/$p: cma_alloc_start aligned as the DMA API ($a)" [ "$a" = "1024:8 8192:8" ]
		ok_rows=$(csv_rows "$run/alloc-$p.csv" 'success == 1 && from_area == 1' | wc -l)
		check "$s/$p: both requests served from the area ($ok_rows/2)" [ "$ok_rows" -eq 2 ]
		z=$(csv_rows "$run/alloc-$p.csv" 'zeroed == 1' | wc -l)
		check "$s/$p: both buffers read zero ($z/2)" [ "$z" -eq 2 ]
		pa=$(csv_rows "$run/alloc-$p.csv" 1 path | sort -u | tr '\n' ' ')
		check "$s/$p: alloc.csv names the path ($pa)" [ "$pa" = "$p " ]
	done
	a=$(aligns "$run/paths-align-debugfs0.csv")
	check "$s/debugfs: alignment 0 by default ($a)" [ "$a" = "1024:0 8192:0" ]
	a=$(aligns "$run/paths-align-debugfs3.csv")
	check "$s/debugfs: alloc_align=3 applied ($a)" [ "$a" = "1024:3 8192:3" ]
	for t in heap dma debugfs0 debugfs3 dma-full; do
		u=$(csv_rows "$run/paths-used.csv" "tag == \"$t\"" 'used_before "->" used_after')
		check "$s/$t: nothing left allocated after the frees (used $u)" same_used "$u"
	done
	full=$(csv_rows "$run/alloc-dma-full.csv" 1 'success "," errno "," from_area')
	echo "# $s: the held area ($(val "$run/paths-held") pages used), 512 pages through dma: success,errno,from_area = $full"
	check "$s/dma: a request the held area cannot serve is a CMA failure ($full)" \
		[ "${full%%,*}" = 0 ]
	check "$s: no splat on the console" no_splat "$run/console.log"
done
no_qemu() { ! pgrep -f "qemu-system-x86_64.*$res" > /dev/null; }
check "no QEMU left running" no_qemu
