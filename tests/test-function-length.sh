#!/bin/sh
# Functions a reader can hold (issue 43): no C function of the harness, the
# guest programs or the unit tests is longer than 120 lines, counted from
# its opening brace (alone in column 0, kernel style) to its closing one.
# A self-test shows a function of 121 lines is caught. Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
limit=${FUNCTION_LINES:-120}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

# long FILE...: "lines file:line name" of each function over the limit
long() {
	awk -v lim="$limit" '
		/^\{$/ { start = FNR; name = prev; next }
		/^\}/ && start { n = FNR - start + 1; if (n > lim) printf "%d %s:%d %s\n", n, FILENAME, start, name; start = 0 }
		{ if ($0 ~ /^[a-zA-Z_].*\(/) prev = $0 }' "$@"
}

{
	echo 'static int short_one(void)'
	echo '{'
	echo '	return 0;'
	echo '}'
	echo 'int long_one(int x)'
	echo '{'
	i=0
	while [ $i -lt $((limit - 2)) ]; do echo '	x++;'; i=$((i + 1)); done
	echo '	return x;'
	echo '}'
} > "$t/self.c"
long "$t/self.c" > "$t/self.out"
check "self-test: a function of $((limit + 1)) lines is caught and named" grep -q "^$((limit + 1)) .*long_one" "$t/self.out"
check "self-test: a short function is not" sh -c "! grep -q short_one '$t/self.out'"

cd "$top" || exit 1
find harness workloads tests -name '*.c' | sort > "$t/files"
# shellcheck disable=SC2046 # the file list, one path per line, no spaces
long $(cat "$t/files") | sort -rn > "$t/long"
sed 's/^/# over the limit: /' "$t/long"
check "no function over $limit lines in $(wc -l < "$t/files") C files ($(wc -l < "$t/long") found)" [ ! -s "$t/long" ]
