#!/bin/sh
# cmabench image --closure (what scripts/board-vm copies into a board's
# image): a host program with its interpreter and libraries, each line a
# path in the root and the file it is on the host; a missing program or a
# file that is not ELF is an error naming it, with nothing on stdout.
# Prints TAP.
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
CMABENCH=${CMABENCH:-$here/../cmabench}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
tab=$(printf '\t')

sh_path=$(command -v sh)
interp=$(readelf -l "$sh_path" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
"$CMABENCH" image --closure / "$sh_path" > "$t/out" 2> "$t/err"
check "the closure of $sh_path is listed (exit 0)" [ $? -eq 0 ]
check "its first line is the program" \
	sh -c "head -n 1 '$t/out' | grep -q '^$sh_path$tab/'"
check "its interpreter ($interp) is listed" grep -q "^$interp$tab/" "$t/out"
check "libc is listed" grep -q "/libc\.so\.6$tab/" "$t/out"
# every host path is a regular file; no file twice
files_ok() {
	while IFS=$tab read -r g h; do
		[ -n "$g" ] && [ -f "$h" ] && [ ! -L "$h" ] || return 1
	done < "$t/out"
}
check "every line names a regular file on the host" files_ok
check "no file is listed twice" \
	sh -c "[ \$(cut -f1 '$t/out' | sort | uniq -d | wc -l) -eq 0 ]"

"$CMABENCH" image --closure / /nonexistent/prog > "$t/out" 2> "$t/err"
check "a missing program fails (exit 1)" [ $? -eq 1 ]
check "... naming it" grep -q "/nonexistent/prog: no such file in /" "$t/err"
check "... with nothing on stdout" [ ! -s "$t/out" ]

mkdir -p "$t/root/bin"
printf '#!/bin/sh\n' > "$t/root/bin/script"
"$CMABENCH" image --closure "$t/root" /bin/script > "$t/out" 2> "$t/err"
check "a program that is not ELF fails (exit 1)" [ $? -eq 1 ]
check "... naming it" grep -q "$t/root/bin/script" "$t/err"
check "... with nothing on stdout" [ ! -s "$t/out" ]

"$CMABENCH" image --closure / > "$t/out" 2> "$t/err"
check "--closure without a program is a usage error (exit 2)" [ $? -eq 2 ]
