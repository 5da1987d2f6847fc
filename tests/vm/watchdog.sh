#!/bin/sh
# VM test of the progress watchdog (harness/run/watchdog.c) on the vanilla
# kernel: a guest whose every task sleeps, its reader waiting on a scratch
# disk throttled to 1 byte/s through QMP mid-run (scenario key
# scratch-stall), must end as `hang` within 2 minutes of its last progress,
# long before its VM timeout, its directory keeping the console with the
# tasks' stacks (sysrq t and w, asked for through a break on the serial
# line) and the jiffies the host read; the next run goes on. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
no_qemu() { ! pgrep -f "qemu-system-x86_64.*$res" > /dev/null; }

vm_test
cat > "$res/stall.scn" << 'EOF2'
[global]
kernel=vanilla
setup=none
memory=256M
alloc-count=0
trace=
order-seed=0
timeout=15m

[stall]
script=stall-read.sh
scratch-stall=cmabench-stall: stall
hang-silence=60s

[after]
script=stall-read.sh
EOF2
start=$(date +%s)
"$CMABENCH" run --results "$res/out" "$res/stall.scn" > "$res/run.log" 2>&1
rc=$?
took=$(($(date +%s) - start))
sed 's/^/# /' "$res/run.log" | grep -v '^# \[' | tail -n 12
dir=$(first "$res"/out/stall-*)
run="$dir/runs/stall-r1"
check "a run whose tasks all sleep has status hang" grep -qx hang "$run/status"
check "it is marked partial" grep -q '"partial":true' "$run/metadata.json"
check "cmabench exits 1: a hung run is a fault (got $rc)" [ "$rc" -eq 1 ]
# its last progress: the console line of the marker; the end: QEMU's exit
last=$(sed -n 's/^# Last progress \([0-9.]*\) s before: .*/\1/p' "$run/watchdog.txt" 2>/dev/null)
secs=$(sed -n 's/.*"seconds": *\([0-9.]*\).*/\1/p' "$run/metadata.json" | head -n 1)
echo "# last progress ${last:-?} s before the silence was found; the run took ${secs:-?} s; the test ${took} s"
sed 's/^/# watchdog.txt: /' "$run/watchdog.txt" 2>/dev/null | head -n 12
check "found silent after the bound: its last progress 60-70 s before" \
	awk -v l="${last:-0}" 'BEGIN { exit !(l >= 60 && l < 70) }'
# the stop within 2 minutes of the last progress: the probe (<= 45 s) and
# the vCPU samples after the 60 s of silence; the VM timeout (15 min) far off
probe=$(awk '/^sysrq 9 at/ { a = 1 } /^jiffies at/ { t = $3 } END { sub(/^\+/, "", t); print t + 0 }' "$run/watchdog.txt" 2>/dev/null)
check "the probe took ${probe:-?} s after the silence: stopped within 2 min of the last progress" \
	awk -v p="${probe:-999}" -v l="${last:-999}" 'BEGIN { exit !(p + l + 10 < 120) }'
check "sysrq t and w, sent through a break on the serial line, were answered" \
	sh -c "grep -q '^sysrq t: answered' '$run/watchdog.txt' && grep -q '^sysrq w: answered' '$run/watchdog.txt'"
check "the console has the guest's task dump and blocked tasks" \
	sh -c "grep -q 'sysrq: Show State' '$run/console.log' && grep -q 'sysrq: Show Blocked State' '$run/console.log'"
check "the reader is among the blocked tasks, in its folio wait" \
	sh -c "sed -n '/sysrq: Show Blocked State/,\$p' '$run/console.log' | grep -q 'task:cat ' &&
	       sed -n '/sysrq: Show Blocked State/,\$p' '$run/console.log' | grep -q 'folio_wait_bit'"
check "three jiffies samples, and the timers ran (the reader waits on I/O, not a timer)" \
	sh -c "[ \$(grep -c '^jiffies at .*: [0-9]' '$run/watchdog.txt') -eq 3 ] && grep -q 'timers running' '$run/watchdog.txt'"
check "QEMU's side of the stalled disk: requests in flight in its block layer (virtio inuse > 0)" \
	grep -qE '^    inuse: +[1-9]' "$run/watchdog.txt"
check "... which the summary does not call a lost interrupt (QEMU still holds them)" \
	sh -c "grep -q '\"silence\":\"no progress' '$run/metadata.json' && ! grep -q 'lost virtio interrupt' '$run/metadata.json'"
check "the log names the hang and where its stacks are" grep -q "stall/stall-r1: no progress for 60 s" "$res/run.log"
check "the vCPUs were sampled before the kill" grep -q '^# summary: cpu0 ' "$run/hang.txt"
check "the next run went on and completed" grep -qx ok "$dir/runs/after-r1/status"
check "no QEMU left after the hang" no_qemu
check "unstalled, the same read completed (a check of the test)" \
	grep -q "the disk was not stalled" "$dir/runs/after-r1/guest.log"
