#!/bin/sh
# VM test of the GCMA series' integrity under direct I/O: stale-read races
# an O_DIRECT writer and a buffered writer against buffered readers on a
# file larger than the guest's RAM, on 2 vCPUs, with cleancache's LRU and
# with evict=none; no read may return a block older than a write that
# completed before it (stale), none may return a damaged block (corrupt).
# The vanilla kernel runs the same load as a check of the checker.
# CMABENCH_STALE_APPEND adds to the gcma kernels' command line. A guard,
# not a reproducer: the first series passes it too (stale=0 on 2026-12-04;
# the race windows of issue 10 are too narrow to hit here). Prints TAP.
: "${CMABENCH:?set by make check}"
: "${TESTS_BUILDDIR:?set by make check}"
. "$(dirname "$0")/../tap.sh"
val() { cat "$1" 2>/dev/null || echo 0; }

res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
extra=${CMABENCH_STALE_APPEND:-}
cat > "$res/stale.scn" <<SCN
[global]
memory=256M
cpus=2
scratch=1G
alloc-count=0
trace=
script=stale-read.sh
timeout=10m

[vanilla]
kernel=vanilla
setup=none

[lru]
kernel=gcma
setup=gcma
area=64M
append=cleancache.evict=lru $extra

[none]
kernel=gcma
setup=gcma
area=64M
append=cleancache.evict=none $extra
SCN
"$CMABENCH" run --results "$res" "$res/stale.scn"
rc=$?
dir=$(ls -d "$res"/stale-* 2>/dev/null | head -n 1)
check "cmabench run of the stale-read scenario finished (exit $rc)" [ -d "$dir" ]
for r in vanilla lru none; do
	run="$dir/runs/$r-r1"
	line=$(grep '^seconds=' "$run/stale-read.txt" 2>/dev/null)
	echo "# $r: $(head -n 1 "$run/stale-read.txt" 2>/dev/null) $line"
	sed 's/^/# /' "$run/stale-read.err" 2>/dev/null | head -n 5
	reads=$(echo "$line" | sed -n 's/.* reads=\([0-9]*\).*/\1/p')
	dio=$(echo "$line" | sed -n 's/.* dio_writes=\([0-9]*\).*/\1/p')
	buf=$(echo "$line" | sed -n 's/.* buffered_writes=\([0-9]*\).*/\1/p')
	check "$r: the race ran (reads ${reads:-0}, O_DIRECT writes ${dio:-0}, buffered writes ${buf:-0})" \
		sh -c "[ ${reads:-0} -gt 0 ] && [ ${dio:-0} -gt 0 ] && [ ${buf:-0} -gt 0 ]"
	check "$r: no stale, corrupt or failed read or write" \
		sh -c "echo '$line' | grep -q ' stale=0 corrupt=0 errors=0'"
	check "$r: no BUG, oops or warning on the console" \
		sh -c "! grep -qE 'BUG:|Oops|WARNING:' '$run/console.log'"
	[ "$r" = vanilla ] && continue
	s0=$(val "$run/cleancache-start/stores"); s1=$(val "$run/cleancache-end/stores")
	h0=$(val "$run/cleancache-start/hits"); h1=$(val "$run/cleancache-end/hits")
	echo "# $r: cleancache stores +$((s1 - s0)), hits +$((h1 - h0))"
	check "$r: pages went through cleancache (stores +$((s1 - s0)), hits +$((h1 - h0)))" \
		sh -c "[ $s1 -gt $s0 ] && [ $h1 -gt $h0 ]"
done
