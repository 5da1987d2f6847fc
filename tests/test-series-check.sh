#!/bin/sh
# scripts/series-check on a small source of its own: a series and its
# folded form give the same tree (exit 0); the folded form with one hunk
# dropped does not (exit 1, the file named); a patch that does not apply
# is an error (exit 2), as is a series that cannot be read. Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
sc=$top/scripts/series-check

mkdir -p "$t/linux/mm" "$t/a" "$t/b" "$t/c" "$t/d"
printf 'one\ntwo\nthree\n' > "$t/linux/mm/cma.c"
printf 'alpha\nbeta\n' > "$t/linux/mm/gcma.c"
# the series as it grew: a change, then a fix of it, then a second file
cat > "$t/a/0001-add.patch" << 'EOF'
--- a/mm/cma.c
+++ b/mm/cma.c
@@ -1,3 +1,4 @@
 one
+one and a half
 two
 three
EOF
cat > "$t/a/0002-fix.patch" << 'EOF'
--- a/mm/cma.c
+++ b/mm/cma.c
@@ -1,4 +1,4 @@
 one
-one and a half
+one and a bit
 two
 three
--- a/mm/gcma.c
+++ b/mm/gcma.c
@@ -1,2 +1,3 @@
 alpha
 beta
+gamma
EOF
printf '0001-add.patch\n# the fix\n0002-fix.patch\n' > "$t/a/series"
# folded: the fix inside the change
cat > "$t/b/0001-add.patch" << 'EOF'
--- a/mm/cma.c
+++ b/mm/cma.c
@@ -1,3 +1,4 @@
 one
+one and a bit
 two
 three
--- a/mm/gcma.c
+++ b/mm/gcma.c
@@ -1,2 +1,3 @@
 alpha
 beta
+gamma
EOF
echo 0001-add.patch > "$t/b/series"
# folded, one hunk dropped (gcma.c's)
head -7 "$t/b/0001-add.patch" > "$t/c/0001-add.patch"
echo 0001-add.patch > "$t/c/series"
# a patch that does not apply
sed 's/^ two$/ deux/' "$t/b/0001-add.patch" > "$t/d/0001-add.patch"
echo 0001-add.patch > "$t/d/series"

"$sc" --source "$t/linux" "$t/a/series" "$t/b/series" > "$t/out" 2> "$t/err"
rc=$?
check "a series and its folded form: same tree (exit $rc)" [ "$rc" -eq 0 ]
check "it says so" grep -q '^same tree' "$t/out"

"$sc" --source "$t/linux" "$t/a/series" "$t/c/series" > "$t/out" 2> "$t/err"
rc=$?
check "one hunk dropped: the trees differ (exit $rc)" [ "$rc" -eq 1 ]
check "the differing file is named" grep -q 'mm/gcma.c' "$t/out"
check "and only that file" sh -c "! grep -q 'mm/cma.c' '$t/out'"

"$sc" --source "$t/linux" "$t/a/series" "$t/d/series" > "$t/out" 2> "$t/err"
rc=$?
check "a patch that does not apply: exit 2 (exit $rc)" [ "$rc" -eq 2 ]
check "naming the series and the patch" grep -q "$t/d/series: 0001-add.patch does not apply" "$t/err"

"$sc" --source "$t/linux" "$t/a/series" "$t/none" > "$t/out" 2> "$t/err"
rc=$?
check "a series that cannot be read: exit 2 (exit $rc)" [ "$rc" -eq 2 ]
check "the source left as it was" sh -c "[ \"\$(cat '$t/linux/mm/cma.c')\" = \"\$(printf 'one\ntwo\nthree')\" ]"
echo "1..$n"
