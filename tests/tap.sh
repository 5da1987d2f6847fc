# TAP helpers for the shell tests: ok/notok print a numbered line,
# check runs a command and reports it under a description.
n=${n:-0}  # kept when a test sources another (gcma-arm64.sh, gcma-debug.sh)
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
# val FILE: its content, 0 when it cannot be read (a counter that is missing)
val() { cat "$1" 2>/dev/null || echo 0; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else notok "$desc"; fi; }

# What a kernel prints when something went wrong: oopses and BUGs (KASAN,
# sleeping in atomic context, bad page state), WARNINGs (lockdep, DEBUG_VM,
# DEBUG_LIST), list corruption, stalls. no_splat FILE succeeds when FILE has
# none; splats FILE prints the first few as TAP comments.
SPLAT='BUG:|Oops|WARNING:|kernel BUG at|Call Trace:|list_(add|del) corruption|Bad page|detected stall|blocked for more than'
no_splat() { ! grep -qE "$SPLAT" "$1"; }
# the first splats, and the 30 console lines before the first: the console
# of a VM test lives in its temporary directory, gone once it ends
splats() {
	grep -E "$SPLAT" "$1" 2>/dev/null | head -n 5 | sed 's/^/# splat: /'
	grep -m 1 -B 30 -E "$SPLAT" "$1" 2>/dev/null | sed 's/^/# console: /'
}
