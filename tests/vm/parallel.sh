#!/bin/sh
# VM test of 'cmabench run --jobs 2': two smoke runs (vanilla and gcma-kernel
# kernels) at once, each pinned to a core of its own; both complete, and
# each run's metadata says a VM ran beside it. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
cores=$(nproc)
if [ "$cores" -lt 2 ]; then
	echo "ok 1 # SKIP one host core: no two VMs can run at once"
	exit 0
fi
"$CMABENCH" run --jobs 2 --results "$res" --set fio-runtime=2s --set alloc-count=2 smoke
rc=$?
dir=$(first "$res"/smoke-*)
check "cmabench run --jobs 2 smoke succeeded (exit $rc)" [ "$rc" -eq 0 ]
for r in vanilla-r1 gcma-kernel-r1; do
	m="$dir/runs/$r/metadata.json"
	check "$r ended ok" grep -qx ok "$dir/runs/$r/status"
	check "$r: one VM ran beside it" grep -qE '"vms_beside": ?1' "$m"
	check "$r: pinned to a host core" grep -qE '"cpu_affinity": ?"[0-9]+"' "$m"
	check "$r: host load recorded" grep -q '"host_load_start"' "$m"
done
a=$(grep -hoE '"cpu_affinity": ?"[0-9]+"' "$dir"/runs/*/metadata.json | sort -u | wc -l)
check "the two runs had different cores (got $a distinct)" [ "$a" -eq 2 ]
# the two runs overlapped: each started before the other ended
span() { # run -> "start end" in seconds
	m="$dir/runs/$1/metadata.json"
	d=$(sed -n 's/.*"date": *"\([^"]*\)".*/\1/p' "$m" | head -n 1)
	s=$(sed -n 's/.*"seconds": *\([0-9.]*\).*/\1/p' "$m" | head -n 1)
	t=$(date -d "$d" +%s 2>/dev/null || echo 0)
	echo "$t ${s:-0}"
}
overlap() {
	# shellcheck disable=SC2046 # two spans of two numbers each, split on purpose
	set -- $(span vanilla-r1) $(span gcma-kernel-r1)
	awk -v a0="$1" -v ad="$2" -v b0="$3" -v bd="$4" \
		'BEGIN { exit !(a0 > 0 && b0 > 0 && a0 < b0 + bd && b0 < a0 + ad) }'
}
check "the two VMs ran at the same time" overlap
check "the report of a parallel run is written" sh -c "'$CMABENCH' report --quiet '$dir' >/dev/null 2>&1; [ -s '$dir/report.md' ]"
no_qemu() { ! pgrep -f "qemu-system-x86_64.*$res" > /dev/null; }
check "no QEMU left running" no_qemu
