#!/bin/sh
# VM test: runs the smoke scenario on the vanilla kernel (building it and the
# image if needed) and checks what came back through 9p: metadata, fio JSON,
# ten allocation records, counter snapshots. Prints TAP.
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

vm_test
"$CMABENCH" run --only vanilla --results "$res" smoke
rc=$?
echo "# cmabench run exited $rc"
dir=$(first "$res"/smoke-*)
run="$dir/runs/vanilla-r1"

check "cmabench run smoke succeeded" [ "$rc" -eq 0 ]
check "results directory was renamed from its temporary name" sh -c "[ -d '$dir' ] && ! ls -d '$res'/.tmp-* >/dev/null 2>&1"
check "run status is ok" grep -qx ok "$run/status"
check "metadata names the accelerator" grep -qE '"accelerator": ?"(tcg|kvm)"' "$run/metadata.json"
check "metadata records the kernel version" grep -qE '"kernel_version": ?"6\.12' "$run/metadata.json"
check "guest init started and finished" sh -c "grep -q 'cmabench-init: start' '$run/console.log' && grep -q 'cmabench-init: done status=ok' '$run/console.log'"
check "fio JSON came back and shows I/O" "$TESTS_BUILDDIR/check-fio-json" "$run/fio-randread-smoke.json"
rows=$(tail -n +2 "$run/alloc.csv" 2>/dev/null | wc -l)
check "ten allocation records (got $rows)" [ "$rows" -eq 10 ]
okrows=$(csv_rows "$run/alloc.csv" 'pages == 1024 && success == 1 && latency_ns > 0' | wc -l)
check "all ten 1024-page allocations succeeded with a latency (got $okrows)" [ "$okrows" -eq 10 ]
check "vmstat snapshots before and after" sh -c "[ -s '$run/snapshots/before/vmstat' ] && [ -s '$run/snapshots/after/vmstat' ]"
succ=$(cat "$run/snapshots/after/sys-cma/reserved/alloc_pages_success" 2>/dev/null)
check "sysfs counts 10240 pages allocated (got ${succ:-none})" [ "${succ:-0}" -eq 10240 ]
no_qemu() { ! pgrep -f "qemu-system-x86_64.*$res" > /dev/null; }
check "no QEMU left running" no_qemu
fin=$(trace-cmd report "$run/trace.dat" 2>/dev/null | grep -c 'cma_alloc_finish:')
check "trace.dat holds the ten cma_alloc_finish events (got $fin)" [ "$fin" -eq 10 ]

# --resume keeps the complete scenario: no VM, no new directory, and the
# estimate before the first run already counts it done.
out=$("$CMABENCH" run --only vanilla --resume --results "$res" smoke 2>&1)
rc=$?
echo "$out" | sed 's/^/# /' | tail -n 8
check "cmabench run --resume smoke succeeded" [ "$rc" -eq 0 ]
check "--resume names the kept directory" sh -c "echo \"\$1\" | grep -qF \"[resume] smoke: complete in $dir, not run again\"" _ "$out"
check "--resume says nothing is left before any run" sh -c "echo \"\$1\" | grep -q '^\[cmabench run\] .*done: runs\? 1/1; nothing left'" _ "$out"
check "--resume started no run" sh -c "! echo \"\$1\" | grep -q '^\[run '" _ "$out"
check "--resume made no second results directory" [ "$(count "$res"/smoke-*)" -eq 1 ]
