#!/bin/sh
# The committed results stay out of the way and within reach (issue 43):
# no raw run directory is committed unpacked (a set's runs/ lives in its
# runs.tar.xz), every results/ path README.md, docs/ and kernel-patches/
# README cite resolves (a file or directory of the tree, or a member of
# the archive that packs it), a set read from its archive reports the
# bytes committed, and packing its runs again gives the same archive. Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
CMABENCH=${CMABENCH:-$top/cmabench}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
cd "$top" || exit 1
if [ ! -d results ]; then
	# a release tarball ships the tool, not the results
	ok "# SKIP no results/ here (a release tarball): nothing to resolve"
	exit 0
fi

# 1. No unpacked run directory among the tracked files.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files results | sed -n 's|^\(.*/runs/[^/]*\)/.*|\1|p' | sort -u > "$t/unpacked"
	if [ -s "$t/unpacked" ]; then
		sed 's/^/# unpacked: /' "$t/unpacked" | head -n 10
		notok "no results/ run directory is committed unpacked ($(wc -l < "$t/unpacked") found: cmabench pack)"
	else
		ok "no results/ run directory is committed unpacked"
	fi
else
	ok "# SKIP not a git checkout: the tracked files are unknown"
fi

# resolve PATH: 0 when PATH (a glob allowed) is in the tree, or is a member
# of the archive D/N.tar.xz of one of its ancestors D/N.
resolve() {
	# shellcheck disable=SC2086 # a cited glob is matched as the shell would
	for m in $1; do [ -e "$m" ] && return 0; done
	p=${1%/}
	a=$p
	while [ "$a" != results ] && [ "${a#*/}" != "$a" ]; do
		a=${a%/*}
		[ -f "$a.tar.xz" ] || continue
		rel=${p#"${a%/*}"/}
		list="$t/$(echo "$a" | tr / _).list"
		[ -f "$list" ] || tar -tJf "$a.tar.xz" > "$list" 2>/dev/null
		grep -qxF -e "$rel" -e "$rel/" "$list" && return 0
		# shellcheck disable=SC2254 # the cited glob matched against the members
		while read -r member; do
			case ${member%/} in $rel) return 0 ;; esac
		done < "$list"
	done
	return 1
}

# 2. Every cited results/ path resolves. Not citations: placeholders
# (<date>, RUN, JOBS1), paths under tests/data/, where a command is told to
# write (--results DIR), and the temporary name results/.tmp-.
grep -noE '(tests/data/|--results )?results/[A-Za-z0-9._/*{}+<-]+' README.md docs/*.md kernel-patches/README |
	while IFS= read -r hit; do
		file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; path=${rest#*:}
		case $path in
		tests/data/* | --results* | *'<'* | results/.tmp-*) continue ;;
		esac
		path=$(echo "$path" | sed 's/[.,:;]*$//')
		echo "$path" | grep -qE '/[A-Z][A-Z0-9_]*(/|$)' && continue
		echo "$file:$line: $path"
	done | sort -u > "$t/cited"
bad=0
while IFS= read -r c; do
	path=${c##* }
	resolve "$path" || { echo "# $c: not in the tree nor in an archive"; bad=$((bad + 1)); }
done < "$t/cited"
check "every results/ path cited in README.md, docs/ and kernel-patches/README resolves ($(wc -l < "$t/cited") cited, $bad not found)" [ "$bad" -eq 0 -a -s "$t/cited" ]

# 3. Every figure a committed report.md links is there (make plots draws them).
dead=0
nlinks=0
for r in results/*/report.md results/reference/*/report.md; do
	[ -f "$r" ] || continue
	d=${r%/report.md}
	# shellcheck disable=SC2013 # figure paths, one word each (plots/NAME.svg)
	for p in $(grep -o '](plots/[^)]*)' "$r" | sed 's/^](//; s/)$//'); do
		nlinks=$((nlinks + 1))
		[ -f "$d/$p" ] || { echo "# $r: $p is missing"; dead=$((dead + 1)); }
	done
done
check "every figure the committed reports link is committed ($nlinks links, $dead missing)" [ "$dead" -eq 0 ]

# 4. A set read from its archive reports the committed bytes.
set=$(find results -maxdepth 1 -name "smoke-*" -type d | sort | head -n 1)
set=${set%/}
if [ -n "$set" ] && [ -f "$set/runs.tar.xz" ] && [ ! -d "$set/runs" ]; then
	cp -r "$set" "$t/set"
	CMABENCH_CACHE_DIR=$t/cache "$CMABENCH" report --quiet "$t/set" 2>"$t/err"
	check "$set: cmabench report reads its runs.tar.xz (runs unpacked into the cache)" \
		[ -d "$t/cache/sets" -a ! -d "$t/set/runs" ]
	check "$set: the report and data set made from the archive are the committed bytes" \
		diff -r "$set" "$t/set"
	# 5. Packing is deterministic: the same runs give the committed archive.
	mkdir "$t/again" && tar -C "$t/again" -xJf "$set/runs.tar.xz" &&
		"$CMABENCH" pack "$t/again" > /dev/null
	check "$set: cmabench pack of its unpacked runs gives the committed runs.tar.xz, byte for byte" \
		cmp -s "$set/runs.tar.xz" "$t/again/runs.tar.xz"
	check "cmabench pack removed runs/ once packed" [ ! -d "$t/again/runs" ]
else
	ok "# SKIP no packed smoke set in results/"
fi
