#!/bin/sh
# VM test: a one-repetition, tiny latency-sweep (none, cma, gcma; three
# sizes, one request each, a smaller fio file) on the gcma kernel. Checks
# that each set-up kept its own results (per-request CSV, the background's
# fio JSON and perf counts, background states, samples), that the trace's
# two buffers and the attribution came back (trace=cma,attribution), and
# that the report puts cma and gcma side by side. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
"$CMABENCH" run --results "$res" --set repeat=1 --set alloc-count=1 \
	--set alloc-pages=1,512,4096 --set fio-size=256M --set warmup=2s \
	--set trace=cma,attribution latency-sweep
rc=$?
dir=$(first "$res"/latency-sweep-*)
check "cmabench run latency-sweep succeeded (exit $rc)" [ "$rc" -eq 0 ]
for s in none cma gcma; do
	run="$dir/runs/$s-r1"
	check "$s: run status is ok" grep -qx ok "$run/status"
	check "$s: the background's fio JSON shows I/O" \
		"$TESTS_BUILDDIR/check-fio-json" "$run/bg-fio-randread-big.json"
	check "$s: perf stat counted the fio background" \
		grep -q ',task-clock,' "$run/bg-fio-randread-big.perf"
	check "$s: fio, hog and sampler ran to the end" \
		sh -c "[ \$(grep -cE '^(fio-randread-big|hog|sampler),[0-9]+,ran,' '$run/backgrounds.csv') -eq 3 ]"
	check "$s: 1 s samples came back" sh -c "[ \$(wc -l < '$run/samples.csv') -gt 10 ]"
done
for s in cma gcma; do
	run="$dir/runs/$s-r1"
	check "$s: the area was filled and kept filled to the end" \
		sh -c "awk -F, 'NR == 2 && \$5 == \"filled\" { f = 1 } END { exit !f }' '$run/fill.csv' &&
			grep -qE '^fill,[0-9]+,ran,' '$run/backgrounds.csv'"
	sizes=$(awk -F, 'NR > 1 && $6 == 1 { printf "%s ", $3 }' "$run/alloc.csv" 2>/dev/null)
	check "$s: one successful request per size (got: $sizes)" [ "$sizes" = "1 512 4096 " ]
	check "$s: the trace's text copy has the three allocations" \
		sh -c "[ \$(grep -c ',finish,' '$run/trace-cma.csv') -eq 3 ]"
	check "$s: both trace buffers were kept and counted" \
		sh -c "grep -q ',cpuend,main,' '$run/trace-cma.csv' &&
			grep -q '^main,' '$run/trace-loss.csv' && grep -q '^detail,' '$run/trace-loss.csv'"
	check "$s: the attribution's events came back" grep -q ',test,\|,gfinish,' "$run/trace-attr.csv"
done
check "the data set attributes each of the six requests" \
	sh -c "[ \$(grep -c '^c\\|^g' '$dir/data/attribution.csv') -eq 6 ]"
check "none: no allocation was planned" [ ! -e "$dir/runs/none-r1/alloc.csv" ]
"$CMABENCH" report --quiet "$dir" > /dev/null 2>&1
check "the report puts cma and gcma side by side" \
	grep -q '^| metric | better | cma | none | gcma |$' "$dir/report.md"
check "the report names no problem" grep -q 'Failed or degraded runs in .*: 0$' "$dir/report.md"
