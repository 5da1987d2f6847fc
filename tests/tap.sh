# shellcheck shell=sh
# TAP helpers for the shell tests: ok/notok print a numbered line,
# check runs a command and reports it under a description.
n=${n:-0}  # kept when a test sources another (gcma-arm64.sh, gcma-debug.sh)
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
# val FILE: its content, 0 when it cannot be read (a counter that is missing)
val() { cat "$1" 2>/dev/null || echo 0; }
# first PATH...: the first of its arguments that exists (a glob's first
# match, in the shell's sorted order), or nothing
first() { for _f in "$@"; do [ -e "$_f" ] && { echo "$_f"; return 0; }; done; return 0; }
# count PATH...: how many of its arguments exist (a glob's matches)
count() { _c=0; for _f in "$@"; do [ -e "$_f" ] && _c=$((_c + 1)); done; echo "$_c"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else notok "$desc"; fi; }

# run_said RUN: nothing for a run that ended ok, else "; the run: STATUS"
# and the watchdog's summary: for a failing check's description, which CI
# shows when the run's directory is gone with the test's temporary root
run_said() {
	_rs=$(cat "$1/status" 2>/dev/null || echo "no status")
	[ "$_rs" = ok ] && return 0
	_rw=$(sed -n 's/.*"silence": *"\([^"]*\)".*/\1/p' "$1/metadata.json" 2>/dev/null | head -n 1)
	echo "; the run: $_rs${_rw:+: $_rw}"
}

# vm_test: a VM test's start: CMABENCH from make check, and $res, a
# temporary results directory removed on exit (a test that sources another
# keeps the one it made).
vm_test() {
	: "${CMABENCH:?set by make check}"
	if [ -z "${res:-}" ]; then
		res=$(mktemp -d)
		trap 'rm -rf "$res"' EXIT
	fi
}

# csv_rows FILE EXPR [COLUMN]: the data rows of CSV file FILE for which the
# awk expression EXPR holds, its columns named as in FILE's header (e.g.
# 'pages == 1024 && success == 1'); with COLUMN, that column's value only.
# Nothing when FILE cannot be read.
csv_rows() {
	[ -r "$1" ] || return 0
	_cr_set=$(head -n 1 "$1" | tr -d '\r' | awk -F, '{ for (i = 1; i <= NF; i++)
		if ($i ~ /^[a-z_][a-z0-9_]*$/) printf "%s = $%d; ", $i, i }')
	_cr_out=${3:+$3}
	awk -F, "NR > 1 { $_cr_set if ($2) print ${_cr_out:-\$0} }" "$1"
}

# What a kernel prints when something went wrong is the harness's one list
# (harness/run/console.c, which also counts a run's kernel_warnings):
# oopses and BUGs (KASAN, UBSAN, general protection faults, sleeping in
# atomic context, bad page state), WARNINGs (lockdep, DEBUG_VM), list
# corruption, stalls, and any other stack dump (an OOM report). One
# exception: the report of a failed atomic allocation (GFP_ATOMIC,
# GFP_NOWAIT) whose frames are none of cleancache's, GCMA's or CMA's; its
# caller must cope with failure, and the memory pressure these tests make
# on purpose has it happen now and then in writeback on CMA and GCMA set-ups
# alike (tests/data/consoles/atomic-ext4.console). 'cmabench console FILE'
# prints each counted line as "S line" and each excused report as "A line".
# no_splat FILE succeeds when FILE has none; splats FILE prints the first
# few as TAP comments. A report a test announced on the line before it
# provoked it ("expect-splat: WARNING at FUNC") is accepted, once ("X line").
splat_lines() { "${CMABENCH:?set by make check}" console "$1" 2>/dev/null; }
no_splat() { [ -r "$1" ] && ! splat_lines "$1" | grep -q '^S '; }
# the first splats, and the 30 console lines before the first: the console
# of a VM test lives in its temporary directory, gone once it ends; then
# the excused allocation failures, with the stack of the first
splats() {
	_sl=$(splat_lines "$1")
	printf '%s\n' "$_sl" | sed -n 's/^S /# splat: /p' | head -n 5
	_sf=$(printf '%s\n' "$_sl" | sed -n 's/^S //p' | head -n 1)
	[ -n "$_sf" ] && grep -m 1 -B 30 -F -- "$_sf" "$1" | sed 's/^/# console: /'
	printf '%s\n' "$_sl" | sed -n 's/^A /# excused atomic allocation failure: /p' | head -n 5
	printf '%s\n' "$_sl" | sed -n 's/^X /# announced by its test (expect-splat), accepted: /p' | head -n 5
	_sf=$(printf '%s\n' "$_sl" | sed -n 's/^A //p' | head -n 1)
	[ -n "$_sf" ] && grep -m 1 -A 40 -F -- "$_sf" "$1" |
		sed -n '/Call [Tt]race:/,/<\/TASK>\|Mem-Info:/p' | head -n 40 | sed 's/^/# excused: /'
	return 0
}
