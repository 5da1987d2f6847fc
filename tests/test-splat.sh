#!/bin/sh
# Unit test of tests/tap.sh's console judge (no_splat, splats) on consoles
# of real runs (tests/data/consoles/) and variants of them made here.
# Prints TAP.
here=$(dirname "$0")
. "$here/tap.sh"
d=$here/data/consoles
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

check "a stress console with no report passes" no_splat "$d/clean-stress.log"
check "a missing console fails" sh -c ". '$here/tap.sh'; ! no_splat '$t/none.log'"
check "an atomic allocation failure in ext4 writeback is excused" no_splat "$d/atomic-ext4.log"
check "splats names the excused failure and its caller" \
	sh -c ". '$here/tap.sh'; splats '$d/atomic-ext4.log' | grep -q '^# excused: .*mb_update_avg_fragment_size' &&
		splats '$d/atomic-ext4.log' | grep -q '^# excused atomic allocation failure: .*GFP_ATOMIC'"

# the same report with a cleancache frame in its stack
sed 's/^\(\[ *[0-9.]*\]\)  __xa_insert+.*/&\n\1  cleancache_store_folio+0x1d2\/0x3c0/' \
	"$d/atomic-ext4.log" > "$t/ours.log"
check "(the variant has the cleancache frame)" grep -q cleancache_store_folio "$t/ours.log"
check "an atomic allocation failure through cleancache counts" sh -c ". '$here/tap.sh'; ! no_splat '$t/ours.log'"

# the same report for a request that may sleep
sed 's/order:0, mode:0x40830(GFP_ATOMIC|/order:3, mode:0x40cc0(GFP_KERNEL|/' "$d/atomic-ext4.log" > "$t/kernel.log"
check "a failed GFP_KERNEL allocation counts" sh -c ". '$here/tap.sh'; ! no_splat '$t/kernel.log'"

check "an OOM report counts" sh -c ". '$here/tap.sh'; ! no_splat '$d/oom.log'"
check "a WARNING counts" sh -c ". '$here/tap.sh'; ! no_splat '$d/rcu-gp-start-warning.log'"
cat "$d/atomic-ext4.log" "$d/rcu-gp-start-warning.log" > "$t/both.log"
check "a WARNING after an excused failure counts" sh -c ". '$here/tap.sh'; ! no_splat '$t/both.log'"

# a report cut short (no end of stack, no Mem-Info) then a KASAN report
sed '/Call Trace:/q' "$d/atomic-ext4.log" > "$t/cut.log"
echo "[   27.000000] BUG: KASAN: slab-use-after-free in cc_lookup+0x10/0x20" >> "$t/cut.log"
check "a BUG inside an unfinished allocation report counts" sh -c ". '$here/tap.sh'; ! no_splat '$t/cut.log'"

# arm64 prints "Call trace:"
printf '[    1.0] CPU: 0 PID: 1\n[    1.1] Call trace:\n[    1.2]  show_stack+0x18/0x24\n' > "$t/arm64.log"
check "an arm64 stack dump counts" sh -c ". '$here/tap.sh'; ! no_splat '$t/arm64.log'"
check "splats prints the console before the first splat" \
	sh -c ". '$here/tap.sh'; splats '$d/oom.log' | grep -q '^# console: .*cmabench-step'"
