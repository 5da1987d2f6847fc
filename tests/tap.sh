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
# DEBUG_LIST), list corruption, stalls, and any other stack dump (an OOM
# report, lockdep's INFO lines). no_splat FILE succeeds when FILE has none;
# splats FILE prints the first few as TAP comments.
SPLAT='BUG:|Oops|WARNING:|kernel BUG at|Call [Tt]race:|list_(add|del) corruption|Bad page|detected stall|blocked for more than'
# One exception: the stack dump of a failed atomic allocation (GFP_ATOMIC,
# GFP_NOWAIT without __GFP_NOWARN). Its caller must cope with failure, and
# the memory pressure these tests make on purpose has it happen now and then
# in writeback on CMA and GCMA set-ups alike (ext4's block allocator,
# tests/data/consoles/atomic-ext4.console; the virtio ring's descriptors). It
# still counts when a frame of the report is cleancache's, GCMA's or CMA's.
# splat_lines FILE prints each counted line as "S line" and each excused
# report's first line as "A line".
splat_lines() {
	awk -v pat="$SPLAT" '
	function done_alloc() {
		if (alloc)
			print (ours ? "S " : "A ") banner
		alloc = 0
	}
	/page allocation failure: order:[0-9]+, mode:0x[0-9a-f]+\((GFP_ATOMIC|GFP_NOWAIT)[|)]/ {
		done_alloc(); alloc = 1; ours = 0; banner = $0; next
	}
	alloc && /<\/TASK>|Mem-Info:/ { done_alloc(); next }
	alloc && /cleancache|gcma|cma_/ { ours = 1 }
	alloc && /Call [Tt]race:/ { next }
	$0 ~ pat { print "S " $0 }
	END { done_alloc() }' "$1" 2>/dev/null
}
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
	_sf=$(printf '%s\n' "$_sl" | sed -n 's/^A //p' | head -n 1)
	[ -n "$_sf" ] && grep -m 1 -A 40 -F -- "$_sf" "$1" |
		sed -n '/Call [Tt]race:/,/<\/TASK>\|Mem-Info:/p' | head -n 40 | sed 's/^/# excused: /'
	return 0
}
