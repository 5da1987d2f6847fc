#!/bin/sh
# Calls follow the stages as includes do (issue 43): the file graph of the
# harness is derived from its objects' symbols (nm: what each object
# defines, what it needs from the others), and it has no ring (files that
# call each other, directly or round a circle) and no call against the
# stage order (lib < scenario < kbuild < dataset < report < reproduce <
# run < the commands). A file may call files of its own stage and of
# earlier stages. Shared data (a global one file defines and another uses)
# counts as a call. A self-test on two tiny objects shows both checks fail
# when they should. Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
objs=${HARNESS_OBJS:-$here/../harness}
# shellcheck source=tests/stages.sh
. "$here/stages.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM


# edges DIR: "caller callee symbol" for each call between two files of the
# objects under DIR named <stage>/libcmabench_a-<file>.o (the harness's
# library as automake builds it; harness/ itself is stage ".").
edges() {
	find "$1" -name 'libcmabench_a-*.o' | sort | while IFS= read -r o; do
		rel=${o#"$1"/}
		case $rel in */*) st=${rel%/*} ;; *) st=. ;; esac
		f=${rel##*libcmabench_a-}
		f=${f%.o}.c
		[ "$st" = . ] && name=$f || name=$st/$f
		nm --defined-only -g "$o" | awk -v n="$name" 'NF == 3 { print "D", $3, n }'
		nm -u "$o" | awk -v n="$name" '{ print "U", $NF, n }'
	done | awk '
		$1 == "D" { def[$2] = $3; next }
		{ use[++k] = $2; by[k] = $3 }
		END { for (i = 1; i <= k; i++) if ((use[i] in def) && def[use[i]] != by[i])
			print by[i], def[use[i]], use[i] }' | sort -u
}

# rings FILE: the files of a circle in the edges of FILE (tsort's report)
rings() {
	awk '{ print $1, $2 } { print $1, $1 }' "$1" | sort -u | tsort 2>&1 >/dev/null |
		sed -n 's/^tsort: //p' | grep -v 'input contains a loop'
}

# backward FILE: each call against the stage order
backward() {
	while read -r from to sym; do
		a=${from%/*}; [ "$a" = "$from" ] && a=.
		b=${to%/*}; [ "$b" = "$to" ] && b=.
		[ "$(rank "$a")" -lt "$(rank "$b")" ] && echo "$from -> $to ($sym)"
	done < "$1"
	return 0
}

# The self-test: lib/a.c and lib/b.c call each other; lib/a.c calls run/c.c.
mkdir -p "$t/self/lib" "$t/self/run"
printf 'int b(void);\nint c(void);\nint a(void) { return b() + c(); }\n' > "$t/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' > "$t/b.c"
printf 'int c(void) { return 0; }\n' > "$t/c.c"
cc -c -o "$t/self/lib/libcmabench_a-a.o" "$t/a.c" &&
	cc -c -o "$t/self/lib/libcmabench_a-b.o" "$t/b.c" &&
	cc -c -o "$t/self/run/libcmabench_a-c.o" "$t/c.c"
edges "$t/self" > "$t/self.edges"
check "self-test: the graph has the three calls of the tiny objects" [ "$(wc -l < "$t/self.edges")" -eq 3 ]
check "self-test: the ring lib/a.c <-> lib/b.c is found" sh -c "[ -n \"\$(awk '{ print \$1, \$2 } { print \$1, \$1 }' '$t/self.edges' | sort -u | tsort 2>&1 >/dev/null)\" ]"
backward "$t/self.edges" > "$t/self.back"
check "self-test: the call lib/a.c -> run/c.c against the order is found" grep -q '^lib/a.c -> run/c.c (c)$' "$t/self.back"

if [ -z "$(find "$objs" -name 'libcmabench_a-*.o' | head -n 1)" ]; then
	ok "# SKIP no harness objects under $objs (build first)"
	exit 0
fi
edges "$objs" > "$t/edges"
check "the harness's objects give a call graph ($(wc -l < "$t/edges") calls between files)" [ -s "$t/edges" ]
awk '{ print $1, $2 } { print $1, $1 }' "$t/edges" | sort -u | tsort 2>&1 >/dev/null | sed 's/^/# /' > "$t/rings"
[ -s "$t/rings" ] && cat "$t/rings"
check "no ring of calls between files of the harness" [ ! -s "$t/rings" ]
backward "$t/edges" > "$t/back"
sed 's/^/# against the order: /' "$t/back"
check "no call against the stage order ($(wc -l < "$t/back") found)" [ ! -s "$t/back" ]
