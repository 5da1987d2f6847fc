#!/bin/sh
# scripts/cover-letter: the committed cover letter is what the script
# writes from its template, the series and the results (make cover-letter
# regenerates it); a changed letter, an unknown directive, a missing report
# or a report without primaries are errors that name the template's line
# and write nothing. Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
cl=$top/scripts/cover-letter
if [ ! -d "$top/results" ]; then
	# a release tarball ships the tool, not the results the letter cites
	ok "# SKIP no results/ here (a release tarball): no letter to regenerate"
	echo "1..$n"
	exit 0
fi

check "the committed letter is what make cover-letter writes" \
	"$cl" --check "$top/kernel-patches/cover-letter.in" "$top/kernel-patches/series" \
	"$top/kernel-patches/0000-cover-letter.patch"

# a letter edited by hand no longer passes
sed 's/significant/SIGNIFICANT/' "$top/kernel-patches/0000-cover-letter.patch" > "$t/edited.patch"
"$cl" --check "$top/kernel-patches/cover-letter.in" "$top/kernel-patches/series" "$t/edited.patch" 2> "$t/edited.err"
check "a letter edited by hand fails the check (exit 1)" [ $? -eq 1 ]

# a template's figures come from the data: the rows of a report's primaries
printf 'Subject: [PATCH v9 00/@count@] test\n\n@series\n@primaries results/cache-effect-20261206-021937\n' > "$t/ok.in"
"$cl" "$t/ok.in" "$top/kernel-patches/series" "$t/ok.patch" > /dev/null 2>&1
np=$(grep -cv '^[[:space:]]*\(#\|$\)' "$top/kernel-patches/series")
check "the subject counts the series' patches" grep -q "^Subject: \[PATCH v9 00/$np\] test" "$t/ok.patch"
check "each patch is listed with its subject" grep -q "^  \[02/$np\] mm: implement cleancache$" "$t/ok.patch"
check "a primary's row comes from the report" grep -q '^  read-bw: gcma / carveout: ' "$t/ok.patch"

# errors: the template's file and line, exit 2, nothing written
bad() { # name, template body, expected message
	printf 'Subject: x\n%s\n' "$2" > "$t/$1.in"
	"$cl" "$t/$1.in" "$top/kernel-patches/series" "$t/$1.patch" 2> "$t/$1.err"
	rc=$?
	check "$1: exit 2" [ "$rc" -eq 2 ]
	check "$1: the message names the line" grep -q "$t/$1.in:2: $3" "$t/$1.err"
	check "$1: nothing written" [ ! -e "$t/$1.patch" ]
}
bad unknown '@figures all' "unknown directive '@figures'"
bad no-report '@primaries results/no-such-set' '@primaries: results/no-such-set/report.md: no such report'
mkdir -p "$t/set"
printf '# cmabench report\n\n## Secondary comparisons\n' > "$t/set/report.md"
bad no-primaries "@primaries $t/set" "@primaries: $t/set/report.md has no primary comparisons"
bad no-heading '@section results/bench/range-20261207-100425.txt no such heading' "@section: results/bench/range-20261207-100425.txt has no heading"
bad no-test '@tests results/bench/ci-20261207-0013.txt no-such-test.sh' "@tests: results/bench/ci-20261207-0013.txt has no test 'no-such-test.sh'"
echo "1..$n"
