#!/bin/sh
# VM test (make check VM=ssh, never in CI): runs through --target against a
# QEMU VM that plays a board (scripts/board-vm: its own kernel, dropbear,
# kexec-tools, a forwarded ssh port; kexec works inside TCG). Checks
# cmabench target check with and without kexec-tools, the smoke scenario and
# a tiny allocation sweep end to end (results laid out as a VM's, the
# board's identity in metadata, the board back in its own kernel, nothing
# of ours left on it), a kernel that panics and never comes back, and a
# Ctrl-C mid-run. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"
top=$(cd "$here/../.." && pwd)

vm_test
bvm=$res/board
board_vm() { CMABENCH=$CMABENCH "$top/scripts/board-vm" "$@"; }
on_board() { ssh -F "$bvm/ssh_config" board "$@"; }
own_kernel() { ! on_board cat /proc/cmdline | grep -q cmabench.run; }
nothing_left() { ! on_board ls -d /var/tmp/cmabench > /dev/null 2>&1; }
cleanup() { board_vm stop "$bvm" > /dev/null 2>&1; rm -rf "$res"; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

board_vm image "$bvm" > "$res/board-image.log" 2>&1
check "the board VM's disk was made" [ -s "$bvm/board.img" ]
board_vm start "$bvm" --mem 2048 > "$res/board-start.log" 2>&1
check "the board VM answers ssh" on_board true
url=ssh://board
run() { "$CMABENCH" run --target "$url" --ssh-config "$bvm/ssh_config" --results "$res" "$@"; }

# --- target check: every requirement on a board that has them, then the
# one missing piece named on a board without kexec-tools
out=$("$CMABENCH" target check --ssh-config "$bvm/ssh_config" "$url" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
check "target check passes on the board VM (exit $rc)" [ "$rc" -eq 0 ]
for req in root architecture kexec-tools 'kexec allowed' 'kernel lockdown' 'Secure Boot' \
	'board kernel config' 'kexec in the config' EFI 'device tree' tools 'directory of ours' \
	sysrq; do
	# shellcheck disable=SC2016 # the inner shell's arguments
	check "target check prints '$req'" sh -c 'echo "$1" | grep -q "^  [a-z]* *$2 "' _ "$out" "$req"
done
k=$(on_board 'command -v kexec')
on_board "mv $k $k.off"
out=$("$CMABENCH" target check --ssh-config "$bvm/ssh_config" "$url" 2>&1)
rc=$?
on_board "mv $k.off $k"
echo "$out" | sed 's/^/# /'
check "without kexec-tools target check fails (exit $rc)" [ "$rc" -eq 1 ]
# shellcheck disable=SC2016 # the inner shell's arguments
check "and names the missing piece" sh -c 'echo "$1" | grep -q "^  MISSING  kexec-tools .*install kexec-tools"' _ "$out"

# --- a board cannot honour a throttled disk: refused before anything runs
out=$(run --only vanilla --set disk=emmc smoke 2>&1)
rc=$?
check "disk=emmc on a board is refused (exit $rc)" [ "$rc" -ne 0 ]
# shellcheck disable=SC2016 # the inner shell's arguments
check "naming the file, section and key" sh -c 'echo "$1" | grep -q "smoke.scn: \[vanilla\] disk = emmc"' _ "$out"

# --- smoke end to end
run smoke > "$res/smoke.log" 2>&1
rc=$?
sed 's/^/# /' "$res/smoke.log" | tail -n 15
dir=$(first "$res"/smoke-*)
check "cmabench run --target smoke succeeded (exit $rc)" [ "$rc" -eq 0 ]
for s in vanilla gcma-kernel; do
	r=$dir/runs/$s-r1
	check "$s: run status is ok" grep -qx ok "$r/status"
	rows=$(csv_rows "$r/alloc.csv" 'pages == 1024 && success == 1 && latency_ns > 0' | wc -l)
	check "$s: ten 1024-page allocations came back (got $rows)" [ "$rows" -eq 10 ]
	check "$s: the console has our init's steps and the kernel's log" \
		sh -c "grep -q 'cmabench-init: done status=ok' '$r/console.log' &&
			grep -q 'cmabench-board: the kernel' '$r/console.log'"
	check "$s: metadata names the target and the board" \
		sh -c "grep -q '\"target\": *\"$url\"' '$r/metadata.json' &&
			grep -q '\"board\": *{' '$r/metadata.json'"
	check "$s: the kernel under test booted with its area and marker" \
		grep -q "\"board_cmdline\": *\".*mem=512M .*cmabench.run=$s-r1.* cma=64M" "$r/metadata.json"
	check "$s: the board came back in its own kernel" grep -q '"board_returned_to"' "$r/metadata.json"
done
check "the report was written" [ -s "$dir/report.md" ]
check "the board runs its own kernel again" own_kernel
check "nothing of ours is left on the board" nothing_left

# --- a tiny allocation sweep: cma and gcma on the gcma kernel, the heap path
run --only cma,gcma --set repeat=1 --set alloc-count=1 --set alloc-pages=1,512 \
	--set fio-size=128M --set warmup=2s latency-sweep > "$res/sweep.log" 2>&1
rc=$?
sed 's/^/# /' "$res/sweep.log" | tail -n 8
dir=$(first "$res"/latency-sweep-*)
check "the sweep through --target succeeded (exit $rc)" [ "$rc" -eq 0 ]
for s in cma gcma; do
	sizes=$(awk -F, 'NR > 1 && $6 == 1 { printf "%s ", $3 }' "$dir/runs/$s-r1/alloc.csv" 2>/dev/null)
	check "$s: one successful request per size (got: $sizes)" [ "$sizes" = "1 512 " ]
done

# --- a kernel that panics and stays down: the run is marked, the command ends
run --only vanilla --set 'append=init=/nonexistent panic=0' --board-timeout 90 smoke \
	> "$res/lost.log" 2>&1
rc=$?
sed 's/^/# /' "$res/lost.log" | tail -n 8
# shellcheck disable=SC2012 # our own directory names, newest first
dir=$(ls -td "$res"/smoke-* | head -n 1)
check "a board that never returns fails the command (exit $rc)" [ "$rc" -ne 0 ]
check "its run is marked board-lost" grep -qx board-lost "$dir/runs/vanilla-r1/status"
check "and the user is told the directory may remain" grep -q 'may remain on it' "$res/lost.log"
board_vm stop "$bvm" > /dev/null 2>&1
board_vm start "$bvm" --mem 2048 > "$res/board-start2.log" 2>&1
on_board 'rm -rf /var/tmp/cmabench'

# --- a run that stops progressing: every process of the run (our init, its
# heartbeat, perf, fio: those whose root is the chroot) stopped with SIGSTOP
# once fio runs; the watchdog asks for the tasks' stacks over ssh, the run
# ends as a hang (a stopped fio alone is not silence: the board's disk and
# perf still move the heartbeat's numbers)
run --only vanilla --set fill=0 smoke > "$res/stall.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -qs 'begin fio' "$res"/.tmp-*/runs/vanilla-r1/console.log; do
	sleep 1
	i=$((i + 1))
done
# the step line comes before fio's exec: wait for the fio process itself
# (else fio starts after the others are stopped, and its stack is not a T)
i=0
while [ $i -lt 60 ] && ! on_board 'grep -qx fio /proc/[0-9]*/comm' 2> /dev/null; do
	sleep 1
	i=$((i + 1))
done
# shellcheck disable=SC2016 # the board's shell expands them
on_board 'for p in /proc/[0-9]*; do
	case $(readlink $p/root) in /var/tmp/cmabench/*/root) kill -STOP ${p#/proc/} ;; esac
done'
wait "$pid"
rc=$?
sed 's/^/# /' "$res/stall.log" | tail -n 8
# shellcheck disable=SC2012 # our own directory names, newest first
dir=$(ls -td "$res"/smoke-* | head -n 1)
r=$dir/runs/vanilla-r1
check "a stalled run fails the command (exit $rc)" [ "$rc" -ne 0 ]
check "its run ends as a hang" grep -qx hang "$r/status"
check "the watchdog asked for the stacks over ssh" grep -q 'sysrq t and w over ssh .*: asked' "$r/watchdog.txt"
check "and says whether the board's clock runs" \
	grep -q '; uptime +[0-9.]* s in [0-9.]* s (timers running)' "$r/watchdog.txt"
check "the stopped fio's stack came back in the kernel's log" \
	sh -c "sed -n '/cmabench-board: the kernel/,\$p' '$r/console.log' | grep -q 'task:fio .*state:T'"
check "the board came back in its own kernel after the hang" own_kernel

# --- Ctrl-C mid-run: the board back in its own kernel, nothing left on it
# cmabench itself in the background, not a function's subshell: a
# non-interactive shell's background jobs ignore SIGINT
"$CMABENCH" run --target "$url" --ssh-config "$bvm/ssh_config" --results "$res" --only vanilla \
	smoke > "$res/int.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -qs 'running the plan' "$res/int.log"; do sleep 1; i=$((i + 1)); done
sleep 5
kill -INT "$pid"
wait "$pid"
rc=$?
sed 's/^/# /' "$res/int.log" | tail -n 8
check "Ctrl-C ends the command with 130 (got $rc)" [ "$rc" -eq 130 ]
check "the board was rebooted into its own kernel" own_kernel
check "the command says so" grep -q 'in its own kernel' "$res/int.log"
check "nothing of ours is left on the board after Ctrl-C" nothing_left

# --- arm64: the same path on an arm64 board VM where the arm64 tools are
# installed (scripts/install-deps --arm64), its TAP numbered on from here
board_vm stop "$bvm" > /dev/null 2>&1
# shellcheck source=tests/vm/ssh-arm64.sh
. "$here/ssh-arm64.sh"
