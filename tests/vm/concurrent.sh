#!/bin/sh
# VM test: two 'cmabench run' of the same scenario started at once into one
# results root both complete, into two directories (the second claims
# NAME-2), each named in its own metadata, each with its report, and no
# temporary directory is left. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
args="--only vanilla --results $res --set fio-runtime=2s --set alloc-count=2 --set fill=0"
# shellcheck disable=SC2086 # the options, split into words on purpose
"$CMABENCH" run $args smoke > "$res/a.log" 2>&1 &
a=$!
# shellcheck disable=SC2086 # the options, split into words on purpose
"$CMABENCH" run $args smoke > "$res/b.log" 2>&1 &
b=$!
wait $a; ra=$?
wait $b; rb=$?
check "first run succeeded (exit $ra)" [ "$ra" -eq 0 ]
check "second run succeeded (exit $rb)" [ "$rb" -eq 0 ]
n=$(count "$res"/smoke-*)
check "two results directories (got $n)" [ "$n" -eq 2 ]
for d in "$res"/smoke-*; do
	id=${d##*/}
	check "$id: its metadata names it" grep -qE "\"run_id\": ?\"$id\"" "$d/metadata.json"
	check "$id: its run ended ok" grep -qx ok "$d/runs/vanilla-r1/status"
	check "$id: run wrote its report" [ -s "$d/report.md" ]
done
check "no temporary directory left" sh -c "! ls -d '$res'/.tmp-* > /dev/null 2>&1"
check "the run ends by naming its report" grep -q "report: .*/report.md" "$res/a.log"
