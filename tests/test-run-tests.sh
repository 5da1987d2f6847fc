#!/bin/sh
# Unit test of tests/run-tests' counting: each case runs the runner on a
# small script that prints TAP and checks the summary line and exit status.
# Prints TAP.
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

# counts NAME EXPECTED-SUMMARY EXPECTED-STATUS TAP-LINES...: the runner's
# last line for a test printing TAP-LINES, and its exit status
counts() {
	name=$1 want=$2 status=$3
	shift 3
	printf '%s\n' "$@" > "$t/$name.tap"
	printf 'cat "%s"\n' "$t/$name.tap" > "$t/$name.sh"
	sh "$here/run-tests" "$t/$name.sh" > "$t/$name.out" 2>&1
	rc=$?
	got=$(tail -n 1 "$t/$name.out")
	if [ "$got" != "$want" ] || [ "$rc" -ne "$status" ]; then
		echo "# expected: $want (status $status)"
		echo "# but got:  $got (status $rc)"
		return 1
	fi
}

check "an ok line passes" \
	counts pass "1 passed, 0 failed, 0 skipped" 0 "1..1" "ok 1 - works"
check "a not ok line fails" \
	counts fail "0 passed, 1 failed, 0 skipped" 1 "1..1" "not ok 1 - broken"
check "ok with a SKIP directive is a skip" \
	counts okskip "0 passed, 0 failed, 1 skipped" 0 "1..1" "ok 1 # SKIP no dtc"
check "not ok with a SKIP directive is a skip (cmocka's form)" \
	counts notokskip "0 passed, 0 failed, 1 skipped" 0 "1..1" "not ok 1 # SKIP test_fragment_compiles"
check "a skip directive in lower case is a skip" \
	counts lower "0 passed, 0 failed, 1 skipped" 0 "1..1" "not ok 1 - x # skip no tool"
check "SKIP in a description without '#' is a failure" \
	counts desc "0 passed, 1 failed, 0 skipped" 1 "1..1" "not ok 1 - SKIP handling broken"
check "a '#' comment other than SKIP leaves a failure" \
	counts todo "0 passed, 1 failed, 0 skipped" 1 "1..1" "not ok 1 - x # expected 3"
check "a mix is counted line by line" \
	counts mix "2 passed, 1 failed, 2 skipped" 1 "1..5" "ok 1 - a" "not ok 2 # SKIP b" \
	"ok 3 # SKIP c" "not ok 4 - d" "ok 5 - e"
check "a test that prints nothing fails" \
	counts empty "0 passed, 1 failed, 0 skipped" 1 ""
