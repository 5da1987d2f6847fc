#!/bin/sh
# VM test of the fill phase: a CMA and a GCMA area brought to 90% by their
# natural tenants before the allocations (fill.csv says filled), every
# allocation row carries the occupancy it met, the filler is still running
# when the backgrounds stop, cleancache's stores and hits move, and the
# guest never meets the OOM killer; a set-up without an area runs the
# fill's readers beside its job too (fill.csv says load); a paced keeper
# (fill-keep=paced) reads only while its area is short, and with
# alloc-refill every request meets the area back at its fill, the wait
# recorded, the keeper stopped during bursts and going on after. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
cat > "$res/fill.scn" <<'SCN'
[global]
kernel=gcma
memory=512M
area=128M
scratch=2G
fill=90
fill-timeout=90s
alloc-pages=1024,8192
alloc-count=2
alloc-interval=500ms
background=sampler
timeout=6m

[cma]
setup=cma

[gcma]
setup=gcma

[none]
setup=none

[gcma-paced]
setup=gcma
fill-keep=paced
alloc-refill=20s
; back to back: only the wait lets the area refill between requests
alloc-interval=0
SCN
"$CMABENCH" run --results "$res" "$res/fill.scn"
rc=$?
dir=$(first "$res"/fill-*)
check "cmabench run of a filled scenario succeeded (exit $rc)" [ "$rc" -eq 0 ]
for r in cma-r1 gcma-r1; do
	run="$dir/runs/$r"
	st=$(csv_rows "$run/fill.csv" 1 status | head -n 1)
	reached=$(csv_rows "$run/fill.csv" 1 reached_pct | head -n 1)
	secs=$(csv_rows "$run/fill.csv" 1 seconds | head -n 1)
	echo "# $r: fill reached ${reached:-?}% in ${secs:-?} s"
	check "$r: the area was filled (fill.csv: ${st:-missing})" [ "$st" = filled ]
	first=$(csv_rows "$run/alloc.csv" 1 area_occupancy_pct | head -n 1)
	check "$r: the first allocation met an area >= 90% full (got ${first:-none})" \
		awk -v o="${first:-0}" 'BEGIN { exit !(o >= 90) }'
	rows=$(csv_rows "$run/alloc.csv" 'area_occupancy_pct != ""' | wc -l)
	check "$r: every allocation row carries an occupancy ($rows of 4)" [ "$rows" -eq 4 ]
	check "$r: the filler ran until the backgrounds stopped" grep -q '^fill,[0-9]*,ran,' "$run/backgrounds.csv"
	busy=$(csv_rows "$run/fill-keeper.csv" 'keep_seconds > 0' 'sprintf("%.0f", 100 * reading_seconds / keep_seconds)' | head -n 1)
	check "$r: the streaming keeper read on after the fill (reading ${busy:-?}% of the time)" \
		awk -v b="${busy:-0}" 'BEGIN { exit !(b >= 90) }'
	check "$r: samples carry the area's tenants" grep -q ',area,tenants,' "$run/samples.csv"
	check "$r: no OOM killer" sh -c "! grep -q 'invoked oom-killer' '$run/console.log'"
done
nr="$dir/runs/none-r1"
st=$(csv_rows "$nr/fill.csv" 1 'area "," status' | head -n 1)
check "none: the fill's load ran without an area (fill.csv: ${st:-missing})" [ "$st" = none,load ]
check "none: its load ran until the backgrounds stopped" grep -q '^fill,[0-9]*,ran,' "$nr/backgrounds.csv"
kept=$(csv_rows "$nr/fill-keeper.csv" 1 read_mb | head -n 1)
check "none: its readers read on beside the job, as the others' (${kept:-?} MiB)" [ "${kept:-0}" -gt 0 ]
pr="$dir/runs/gcma-paced-r1"
busy=$(csv_rows "$pr/fill-keeper.csv" 'keep_seconds > 0' 'sprintf("%.0f", 100 * reading_seconds / keep_seconds)' | head -n 1)
check "gcma-paced: the area was filled" grep -q ',filled,' "$pr/fill.csv"
check "gcma-paced: its keeper read only while the area was short (reading ${busy:-?}% of the time)" \
	awk -v b="${busy:-100}" 'BEGIN { exit !(b < 50) }'
occ=$(csv_rows "$pr/alloc.csv" 1 area_occupancy_pct | sort -g | head -n 1)
check "gcma-paced: with alloc-refill every request met the area >= 90% full (lowest ${occ:-none})" \
	awk -v o="${occ:-0}" 'BEGIN { exit !(o >= 90) }'
waits=$(csv_rows "$pr/alloc.csv" 'refill_wait_ns != ""' | wc -l)
slow=$(csv_rows "$pr/alloc.csv" 'refill_wait_ns > 100000000' | wc -l)
check "gcma-paced: every request says how long its burst waited for the refill ($waits of 4)" [ "$waits" -eq 4 ]
check "gcma-paced: a request after an 8192-page one waited for the keeper ($slow waits over 0.1 s)" [ "$slow" -ge 1 ]
check "gcma-paced: its keeper, stopped during each burst, went on and ended with the run" \
	grep -q '^fill,[0-9]*,ran,' "$pr/backgrounds.csv"
check "none: no allocation was made" sh -c "! [ -s '$nr/alloc.csv' ] || [ \$(wc -l < '$nr/alloc.csv') -le 1 ]"
g="$dir/runs/gcma-r1/snapshots"
s0=$(val "$g/before/cleancache/stores"); s1=$(val "$g/after/cleancache/stores")
h0=$(val "$g/before/cleancache/hits"); h1=$(val "$g/after/cleancache/hits")
check "gcma: cleancache stores moved during the measured phase ($s0 -> $s1)" [ "$s1" -gt "$s0" ]
check "gcma: cleancache hits moved during the measured phase ($h0 -> $h1)" [ "$h1" -gt "$h0" ]
"$CMABENCH" report --quiet "$dir" > /dev/null 2>&1
check "the report says what the areas held" grep -q 'fill 90%: ' "$dir/report.md"
check "the report says none ran the fill's load" grep -q "no area; the fill's readers beside it" "$dir/report.md"
no_qemu() { ! pgrep -f "qemu-system-x86_64.*$res" > /dev/null; }
check "no QEMU left running" no_qemu
