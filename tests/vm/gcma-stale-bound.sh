#!/bin/sh
# VM test: the stale entries that pages taken back leave in cleancache never
# outnumber the pool's pages. workloads/guest/scripts/stale-cycle.sh cycles
# 32 files of half a pool each (16 pools in all) through cleancache, each
# kept open with one live page, while the low half of an 8 MiB GCMA area is
# taken back once per file; the count is read right after each take-back,
# when it peaks. The series before issue 23 fails it: with
# CMABENCH_VARIANTS=$PWD/results/bench/stale-bound-20261205/variants and
# STALE_BOUND_KERNEL=gcma-v2-stalecount (0001-0018 with a counting patch)
# the count grows by half a pool per cycle. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
kernel=${STALE_BOUND_KERNEL:-gcma}
cat > "$res/bound.scn" <<SCN
[global]
memory=128M
cpus=1
scratch=512M
alloc-count=0
trace=
script=stale-cycle.sh
timeout=5m

[$kernel]
kernel=$kernel
setup=gcma
area=8M
SCN
"$CMABENCH" run --results "$res/bound" "$res/bound.scn"
rc=$?
dir=$(first "$res"/bound/bound-*)
run="$dir/runs/$kernel-r1"
check "cmabench run of the stale-cycle scenario on $kernel finished (exit $rc)" [ -r "$run/stale-cycle.txt" ]
sed 's/^/# /' "$run/stale-cycle.head" 2>/dev/null
sed -n '1p;2p;$p' "$run/stale-cycle.txt" 2>/dev/null | sed 's/^/# /'
eval "$(sed 's/ /\n/g' "$run/stale-cycle.head" 2>/dev/null | grep -E '^(pool_pages|half|cycles)=[0-9]+$')"
: "${pool_pages:=0}" "${half:=0}" "${cycles:=0}"
n=$(grep -c '^cycle=' "$run/stale-cycle.txt" 2>/dev/null)
tb=$(tail -n 1 "$run/stale-cycle.txt" 2>/dev/null | sed -n 's/.* taken_back=\([0-9]*\).*/\1/p')
smax=$(sed -n 's/.* stale_slots=\([0-9]*\) .*/\1/p' "$run/stale-cycle.txt" 2>/dev/null | sort -n | tail -n 1)
echo "# $kernel: $n cycles, taken back ${tb:-0} pages in all, stale_slots at most ${smax:-?}, pool $pool_pages pages"
# Before the last take-back, cycles - 1 files had half a pool each in the low half
want=$(( (cycles - 1) * half * 9 / 10 ))
check "$kernel: every cycle ran and took its file's pages back (${tb:-0} of $(( (cycles - 1) * half )) pages, at least $want)" \
	sh -c "[ ${n:-0} -eq $cycles ] && [ $cycles -ge 32 ] && [ ${tb:-0} -ge $want ] && [ $want -gt 0 ]"
check "$kernel: the take-backs left stale entries: files kept a live page (at most ${smax:-0}, at least $((half * 9 / 10)) wanted)" \
	sh -c "[ ${smax:-0} -ge $((half * 9 / 10)) ] && [ $half -gt 0 ]"
check "$kernel: stale entries never outnumbered the pool's pages (at most ${smax:-?}, pool $pool_pages)" \
	sh -c "[ -n '$smax' ] && [ ${smax:-0} -le $pool_pages ]"
check "$kernel: no BUG, oops or warning on the console" no_splat "$run/console.log"
splats "$run/console.log"
