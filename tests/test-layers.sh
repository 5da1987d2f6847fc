#!/bin/sh
# The harness's folders are stages, and includes follow the order the code
# depends on: lib < scenario < kbuild < dataset < report < reproduce < run
# (which reads its runs' results and reports them) < the commands
# (harness/ itself). A file may include headers of
# its own folder and of folders before it, never of one after it.
# Prints TAP: one line per folder, with each offending include named.
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
h=${HARNESS_DIR:-$here/../harness}
# shellcheck source=tests/stages.sh
. "$here/stages.sh"


# bad FOLDER: prints "file: include" for each include against the order
bad() {
	r=$(rank "$1")
	for f in "$h/$1"/*.[ch]; do
		[ -e "$f" ] || continue
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			case "$inc" in
			config.h | source-version.h | ../*) continue ;;
			*/*) d=${inc%%/*} ;;
			*) d=. ;;
			esac
			ri=$(rank "$d")
			if [ "$ri" -lt 0 ] || [ "$ri" -gt "$r" ]; then
				echo "# ${f#"$h"/}: includes \"$inc\""
			fi
		done
	done
}

# every folder of the harness is one of the stages
for d in "$h"/*/; do
	d=${d%/}
	d=${d##*/}
	check "harness/$d is a stage of the order" [ "$(rank "$d")" -ge 0 ]
done
for o in $order; do
	out=$(bad "$o")
	[ -z "$out" ] || echo "$out"
	check "harness/$o includes only its own stage and earlier ones" [ -z "$out" ]
done

# no circle among the headers (a .c file is included by nobody)
edges() {
	for f in "$h"/*.h "$h"/*/*.h; do
		[ -e "$f" ] || continue
		from=${f#"$h"/}
		echo "$from $from"
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			case "$inc" in config.h | source-version.h | ../*) ;; *) echo "$from $inc" ;; esac
		done
	done
}
loops=$(edges | tsort 2>&1 >/dev/null | sed 's/^/# /')
[ -z "$loops" ] || echo "$loops"
check "the headers include each other in no circle" [ -z "$loops" ]
