#!/bin/sh
# VM test of the runner's fault handling on the vanilla kernel: a guest that
# panics, one that runs past its VM timeout in the middle of its allocations,
# requests aborted at their deadline, and Ctrl-C in the middle of a run.
# Each must be reported, leave no QEMU behind, and produce a results
# directory (a run cut short keeps the rows it completed, marked partial);
# a typo in a scenario stops everything before any VM starts. Prints TAP.
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
no_qemu() { ! pgrep -f "qemu-system-x86_64.*$res" > /dev/null; }

vm_test

# A typo: refused with file:line, nothing started.
sed 's/^memory=/memroy=/' "$(dirname "$0")/../../workloads/scenarios/smoke.scn" > "$res/typo.scn"
"$CMABENCH" run --results "$res/typo" "$res/typo.scn" > "$res/typo.log" 2>&1
rc=$?
check "a scenario with a typo exits 2" [ "$rc" -eq 2 ]
check "the error names file:line and the key" grep -q "typo.scn:[0-9]*: memroy: unknown key" "$res/typo.log"
check "no results directory was written for it" [ ! -e "$res/typo" ]

# A panic: root on a disk that does not exist.
"$CMABENCH" run --only vanilla --results "$res/panic" --set 'append=root=/dev/vdz' smoke \
	> "$res/panic.log" 2>&1
rc=$?
check "a panicking guest makes the run fail (exit $rc)" [ "$rc" -eq 1 ]
check "its status is panic" grep -qx panic "$res"/panic/smoke-*/runs/vanilla-r1/status
check "the console tail is reported" grep -q "Kernel panic - not syncing" "$res/panic.log"
check "no QEMU left after the panic" no_qemu

# A run past its VM timeout in the middle of its allocations: the rows it
# completed are kept, the run marked partial, and cmabench exits 1 (a run
# that did not complete is a fault, not a result).
cat > "$res/cut.scn" << 'EOF'
[cut]
kernel=vanilla
setup=cma
area=64M
memory=384M
alloc-pages=1
alloc-count=100000
alloc-interval=100ms
timeout=25s
EOF
"$CMABENCH" run --results "$res/hang" "$res/cut.scn" > "$res/hang.log" 2>&1
rc=$?
run="$(echo "$res"/hang/cut-*/runs/cut-r1)"
check "a run past its timeout has status timeout" grep -qx timeout "$run/status"
check "it is marked partial" grep -q '"partial":true' "$run/metadata.json"
rows=$(csv_rows "$run/alloc.csv" "success == 1 && timed_out == 0" | wc -l)
check "it kept the $rows rows it completed" [ "$rows" -gt 10 ]
check "its metadata counts them" grep -q "\"requests\":$rows," "$run/metadata.json"
check "the report uses them and says partial" grep -q "cut-r1 (timeout: partial, its rows kept)" "$res"/hang/cut-*/report.md
check "a run that did not complete exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "the summary names it a failed run" grep -q "1 runs failed (1 partial, rows kept)" "$res/hang.log"
# Before the kill, where the vCPU was: read through QMP, named from System.map.
sed -n 's/^# summary: /# hang.txt: /p' "$run/hang.txt" 2>/dev/null
check "hang.txt names the function the vCPU was in and its stack" \
	sh -c "grep -q '^# summary: cpu0 [a-z_][a-z0-9_.]* .*in [0-9]/5 samples' '$run/hang.txt' &&
	       grep -q '^  ffff[0-9a-f]* [a-z_][a-z0-9_.]*+0x[0-9a-f]*\$' '$run/hang.txt'"
check "the log says where the vCPUs were" grep -q "where the vCPUs were (runs/cut-r1/hang.txt): cpu0 " "$res/hang.log"
check "no QEMU left after the timeout" no_qemu

# Requests aborted at a deadline too short for CMA to migrate 8192 pages out
# of a full area: recorded as timed out at the deadline, the kernel gave up
# (-EINTR in cma_alloc_finish), nothing leaked, and the run is complete.
cat > "$res/deadline.scn" << 'EOF'
[deadline]
kernel=vanilla
setup=cma
area=64M
memory=384M
fill=90
alloc-pages=8192
alloc-count=4
alloc-interval=100ms
alloc-timeout=20ms
EOF
"$CMABENCH" run --results "$res/deadline" "$res/deadline.scn" > "$res/deadline.log" 2>&1
rc=$?
run="$(echo "$res"/deadline/deadline-*/runs/deadline-r1)"
late=$(csv_rows "$run/alloc.csv" "timed_out == 1 && success == 0 && errno == 110 && latency_ns == 20000000" | wc -l)
check "requests past their deadline are recorded as timed out ($late of 4)" [ "$late" -ge 1 ]
check "the kernel gave up on them (-EINTR)" grep -q ',finish,reserved,-4$' "$run/trace-cma.csv"
check "nothing left allocated in the area" [ "$(cat "$run/snapshots/after/debug-cma/reserved/used")" = 0 ]
check "the run is complete: status ok, exit 0 (got $rc)" sh -c "[ $rc -eq 0 ] && grep -qx ok '$run/status'"
check "the summary separates timed-out allocations from runs" grep -q "0 runs failed" "$res/deadline.log"
check "the report prints them as lower bounds" grep -q "> 20000.00" "$res"/deadline/deadline-*/report.md

# Ctrl-C in the middle of a run.
"$CMABENCH" run --only vanilla --results "$res/int" smoke > "$res/int.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 120 ] && ! pgrep -f "qemu-system-x86_64.*$res/int" > /dev/null; do
	sleep 1
	i=$((i + 1))
done
sleep 3
kill -INT "$pid"
wait "$pid"
rc=$?
check "Ctrl-C stops cmabench with status 130 (got $rc)" [ "$rc" -eq 130 ]
check "no QEMU left after Ctrl-C" no_qemu
check "no temporary directory left after Ctrl-C" sh -c "! ls -d '$res'/int/.tmp-* > /dev/null 2>&1"
check "the interrupted run is kept, marked partial" grep -q '"partial":true' "$res"/int/smoke-*/runs/vanilla-r1/metadata.json
