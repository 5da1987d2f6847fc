#!/bin/sh
# VM test of the runner's fault handling on the vanilla kernel: a guest that
# panics, one that hangs past its timeout, and Ctrl-C in the middle of a run.
# Each must be reported, leave no QEMU behind, and (except Ctrl-C) still
# produce a results directory; a typo in a scenario stops everything before
# any VM starts. Prints TAP.
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

# A hang: the run's timeout is shorter than the run.
"$CMABENCH" run --only vanilla --results "$res/hang" --set timeout=12s smoke > "$res/hang.log" 2>&1
check "a run past its timeout has status timeout" grep -qx timeout "$res"/hang/smoke-*/runs/vanilla-r1/status
check "no QEMU left after the timeout" no_qemu

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
check "no half-written results after Ctrl-C" sh -c "! ls -d '$res'/int/.tmp-* '$res'/int/smoke-* > /dev/null 2>&1"
