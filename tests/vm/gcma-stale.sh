#!/bin/sh
# VM test of the GCMA series' integrity under direct I/O, with cleancache's
# LRU and with evict=none, on 2 vCPUs and on 1:
# - dio-window forces the window of issue 10, item 1: buffered reads while
#   one O_DIRECT write of a whole cached file invalidates its pages. The
#   first series fails it (a cleancache copy older than the completed write
#   came back: stale=448 of 2,878 reads on 2026-12-04), a fixed one may not.
# - stale-read races an O_DIRECT writer and a buffered writer against
#   buffered readers on a file larger than the guest's RAM for a while (a
#   guard: the first series passes it too, its windows are too narrow to
#   hit at random).
# No read may return a block older than a write that completed before it
# (stale), none a damaged block (corrupt). The vanilla kernel runs the same
# load as a check of the checker, on 2 vCPUs and, the control of the 1-vCPU
# sections, on 1 with their usable memory (192 MiB). CMABENCH_STALE_APPEND adds to the gcma
# kernels' command line; GCMA_ARCH=arm64 runs it on arm64 guests
# (tests/vm/gcma-arm64.sh sources it after its own checks). Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
extra=${CMABENCH_STALE_APPEND:-}
cat > "$res/stale.scn" <<SCN
[global]
arch=${GCMA_ARCH:-x86_64}
memory=256M
cpus=2
scratch=1G
alloc-count=0
trace=
script=stale-read.sh
timeout=10m
append=STALE_SECONDS=20

[vanilla]
kernel=vanilla
setup=none

; the control of the 1-vCPU sections: vanilla with their usable memory
; (256 MiB less the 64 MiB area)
[vanilla-1cpu]
kernel=vanilla
setup=none
memory=192M
cpus=1

SCN
# the GCMA sections: eviction lru and none, on 2 vCPUs and on 1
for sec in lru:2 none:2 lru-1cpu:1 none-1cpu:1; do
	name=${sec%:*}
	cat >> "$res/stale.scn" <<SCN

[$name]
kernel=gcma
setup=gcma
area=64M
cpus=${sec#*:}
append=STALE_SECONDS=20 cleancache.evict=${name%-1cpu} $extra
SCN
done
"$CMABENCH" run --results "$res/stale" "$res/stale.scn"
rc=$?
dir=$(first "$res"/stale/stale-*)
check "cmabench run of the stale-read scenario finished (exit $rc)" [ -d "$dir" ]
for r in vanilla vanilla-1cpu lru none lru-1cpu none-1cpu; do
	run="$dir/runs/$r-r1"
	w=$(cat "$run/dio-window.txt" 2>/dev/null)
	echo "# $r dio-window: $w"
	sed 's/^/# /' "$run/dio-window.err" 2>/dev/null | head -n 3
	wr=$(echo "$w" | sed -n 's/.* window_reads=\([0-9]*\).*/\1/p')
	check "$r: dio-window ran 5 rounds and read while the O_DIRECT writes ran (${wr:-0} reads$(run_said "$run"))" \
		sh -c "echo '$w' | grep -q ' rounds=5 ' && [ ${wr:-0} -gt 0 ]"
	check "$r: dio-window: no stale, damaged or failed read" \
		sh -c "echo '$w' | grep -q ' stale=0 corrupt=0 errors=0'"
	if [ "${r%-1cpu}" != vanilla ]; then
		rs=$(echo "$w" | sed -n 's/.* restored=\([0-9-]*\).*/\1/p')
		check "$r: dio-window's file was restored from cleancache before each write (hits +${rs:-0})" \
			[ "${rs:-0}" -gt 0 ]
	fi
	line=$(grep '^seconds=' "$run/stale-read.txt" 2>/dev/null)
	echo "# $r: $(head -n 1 "$run/stale-read.txt" 2>/dev/null) $line"
	sed 's/^/# /' "$run/stale-read.err" 2>/dev/null | head -n 5
	reads=$(echo "$line" | sed -n 's/.* reads=\([0-9]*\).*/\1/p')
	dio=$(echo "$line" | sed -n 's/.* dio_writes=\([0-9]*\).*/\1/p')
	buf=$(echo "$line" | sed -n 's/.* buffered_writes=\([0-9]*\).*/\1/p')
	check "$r: the race ran (reads ${reads:-0}, O_DIRECT writes ${dio:-0}, buffered writes ${buf:-0}$(run_said "$run"))" \
		sh -c "[ ${reads:-0} -gt 0 ] && [ ${dio:-0} -gt 0 ] && [ ${buf:-0} -gt 0 ]"
	check "$r: no stale, corrupt or failed read or write" \
		sh -c "echo '$line' | grep -q ' stale=0 corrupt=0 errors=0'"
	check "$r: no BUG, oops or warning on the console" \
		no_splat "$run/console.log"
	[ "${r%-1cpu}" = vanilla ] && continue
	s0=$(val "$run/cleancache-start/stores"); s1=$(val "$run/cleancache-end/stores")
	h0=$(val "$run/cleancache-start/hits"); h1=$(val "$run/cleancache-end/hits")
	echo "# $r: cleancache stores +$((s1 - s0)), hits +$((h1 - h0))"
	check "$r: pages went through cleancache (stores +$((s1 - s0)), hits +$((h1 - h0)))" \
		sh -c "[ $s1 -gt $s0 ] && [ $h1 -gt $h0 ]"
done
