#!/bin/sh
# Unit test of tests/tap.sh's console judge (no_splat, splats) on consoles
# of real runs (tests/data/consoles/) and variants of them made here.
# Prints TAP.
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
CMABENCH=${CMABENCH:-$here/../cmabench}
d=$here/data/consoles
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

# a console that is there and that the judge fails (a missing one fails
# no_splat too, which must not pass these cases)
judged_bad() { [ -s "$1" ] && ! no_splat "$1"; }
judged_good() { [ -s "$1" ] && no_splat "$1"; }
# splats' output for FILE matches the extended regex RE
splats_show() { splats "$1" | grep -qE "$2"; }

check "a stress console with no report passes" judged_good "$d/clean-stress.console"
check "a missing console fails" sh -c ". '$here/tap.sh'; ! no_splat '$t/none.console'"
check "an atomic allocation failure in ext4 writeback is excused" judged_good "$d/atomic-ext4.console"
check "splats names the excused failure" \
	splats_show "$d/atomic-ext4.console" '^# excused atomic allocation failure: .*GFP_ATOMIC'
check "splats shows the excused failure's stack" \
	splats_show "$d/atomic-ext4.console" '^# excused: .*mb_update_avg_fragment_size'

# the same report with a cleancache frame in its stack
sed 's/^\(\[ *[0-9.]*\]\)  __xa_insert+.*/&\n\1  cleancache_store_folio+0x1d2\/0x3c0/' \
	"$d/atomic-ext4.console" > "$t/ours.console"
check "(the variant has the cleancache frame)" grep -q cleancache_store_folio "$t/ours.console"
check "an atomic allocation failure through cleancache counts" judged_bad "$t/ours.console"

# the same report for a request that may sleep
sed 's/order:0, mode:0x40830(GFP_ATOMIC|/order:3, mode:0x40cc0(GFP_KERNEL|/' \
	"$d/atomic-ext4.console" > "$t/kernel.console"
check "(the variant asks GFP_KERNEL)" grep -q "mode:0x40cc0(GFP_KERNEL" "$t/kernel.console"
check "a failed GFP_KERNEL allocation counts" judged_bad "$t/kernel.console"

check "an OOM report counts" judged_bad "$d/oom.console"
check "a WARNING counts" judged_bad "$d/rcu-gp-start-warning.console"
cat "$d/atomic-ext4.console" "$d/rcu-gp-start-warning.console" > "$t/both.console"
check "a WARNING after an excused failure counts" judged_bad "$t/both.console"

# a report cut short (no end of stack, no Mem-Info), then a KASAN report
sed '/Call Trace:/q' "$d/atomic-ext4.console" > "$t/cut.console"
check "(the cut report is excused alone)" judged_good "$t/cut.console"
echo "[   27.000000] BUG: KASAN: slab-use-after-free in cc_lookup+0x10/0x20" >> "$t/cut.console"
check "a BUG inside an unfinished allocation report counts" judged_bad "$t/cut.console"

# arm64 prints "Call trace:"
printf '[    1.0] CPU: 0 PID: 1\n[    1.1] Call trace:\n[    1.2]  show_stack+0x18/0x24\n' > "$t/arm64.console"
check "an arm64 stack dump counts" judged_bad "$t/arm64.console"
check "splats prints the console lines before the first splat" \
	splats_show "$d/oom.console" '^# console: .*invoked oom-killer'

# The judge is the harness's list (cmabench console): what it added to the
# tests' old list counts, and a "BUG:" inside another program's text does not
printf '[    9.0] UBSAN: array-index-out-of-bounds in mm/cleancache.c:100:5\n' > "$t/ubsan.console"
check "a UBSAN report counts" judged_bad "$t/ubsan.console"
printf '[    9.0] general protection fault, probably for non-canonical address 0xdead: 0000 [#1] SMP\n' \
	> "$t/gpf.console"
check "a general protection fault counts" judged_bad "$t/gpf.console"
printf '[    9.0] Internal error: synchronous external abort: 0000000096000410 [#1] SMP\n' \
	> "$t/abort.console"
check "an arm64 internal error counts" judged_bad "$t/abort.console"
printf '[    9.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [kworker/0:1:12]\n' \
	> "$t/lockup.console"
check "a soft lockup counts" judged_bad "$t/lockup.console"
printf '[    9.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n' > "$t/stall.console"
check "an RCU stall counts" judged_bad "$t/stall.console"
printf '[    9.0] list_del corruption. next->prev should be ffff0000, but was dead000000000122\n' \
	> "$t/list.console"
check "list corruption counts" judged_bad "$t/list.console"
printf '[    9.0] cma: Reserved 64 MiB\nfio: BUG: in the job name\n' > "$t/fio.console"
check "a BUG: in a program's own text does not count" judged_good "$t/fio.console"

# A report a test announced just before provoking it ("expect-splat: "),
# once: the same WARNING (its function renamed) tagged beforehand
tagged() {
	printf '[    9.0]     # %s: expect-splat: WARNING at %s\n' "$1" "$2"
	sed 's/rcu_check_gp_start_stall\.part\.0/gcma_release_pages/g' "$d/rcu-gp-start-warning.console"
}
tagged gcma_test_release_twice gcma_release_pages > "$t/tagged.console"
check "a WARNING announced by its test is accepted" judged_good "$t/tagged.console"
check "splats names it as expected" sh -c "'$CMABENCH' console '$t/tagged.console' | grep -q '^X .*WARNING: .* gcma_release_pages+'"
tagged gcma_test_release_twice gcma_release_range > "$t/other-func.console"
check "a WARNING in another function than announced counts" judged_bad "$t/other-func.console"
{ tagged gcma_test_release_twice gcma_release_pages; cat "$d/rcu-gp-start-warning.console"; } > "$t/then.console"
check "an unannounced WARNING after an accepted one counts" judged_bad "$t/then.console"
{ tagged t gcma_release_pages; sed 's/rcu_check_gp_start_stall\.part\.0/gcma_release_pages/g' \
	"$d/rcu-gp-start-warning.console"; } > "$t/twice.console"
check "one announcement accepts one report, not two" judged_bad "$t/twice.console"
# an announced report cut short does not hide what comes after it
{ printf '[    9.0] expect-splat: BUG: KASAN: use-after-free in gcma_test_uaf\n'
  printf '[    9.1] BUG: KASAN: use-after-free in gcma_test_uaf+0x10/0x20\n'
  i=0; while [ $i -lt 90 ]; do printf '[    9.2]  frame+0x%x/0x100\n' $i; i=$((i + 1)); done
  printf '[    9.3] BUG: KASAN: slab-use-after-free in cc_lookup+0x10/0x20\n'; } > "$t/kasan.console"
check "a report past its announced one's end (80 lines) counts" judged_bad "$t/kasan.console"
head -n 3 "$t/kasan.console" > "$t/kasan-ok.console"
check "an announced KASAN report is accepted" judged_good "$t/kasan-ok.console"
