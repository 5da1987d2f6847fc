#!/bin/sh
# VM test of the GCMA series on the gcma-debug kernel (KASAN, lockdep,
# DEBUG_VM, DEBUG_LIST, DEBUG_ATOMIC_SLEEP, page_owner, MEMORY_FAILURE,
# DEBUG_PAGEALLOC booted with debug_pagealloc=on and init_on_free=1):
# 1. every check of tests/vm/gcma.sh (gcma-functional: KUnit with
#    init_on_alloc=1, so its zeroing case runs, and init_on_free=1 with
#    debug_pagealloc=on, so its release case runs; full-area allocations;
#    fio verification; mutations; O_DIRECT), at 384 MiB (KASAN's shadow
#    leaves fio too little memory in 256), less the malformed gcma= boot
#    (the parser is the gcma kernel's);
# 2. a stress run on 2 vCPUs: the area kept full of cached pages, two
#    cma-alloc loops taking ranges back at once, O_DIRECT and buffered
#    writers racing buffered readers (stale-read), then dio-window;
# 3. a boot of its own for the KUnit use-after-release case
#    (gcma_kunit.uaf=1): KASAN must report a driver's read of a released
#    GCMA page, which its case announced (a report turns lockdep off for
#    the rest of a boot);
# each console free of any splat but the announced ones. Prints TAP.
: "${CMABENCH:?set by make check}"
: "${TESTS_BUILDDIR:?set by make check}"

# KASAN and lockdep slow the functional run (its reads of a 384 MiB file
# through cleancache: two for the eviction and umount checks): 20 min.
export GCMA_KERNEL=gcma-debug GCMA_MEMORY=384M GCMA_TIMEOUT=20m GCMA_APPEND="init_on_alloc=1 init_on_free=1 debug_pagealloc=on page_owner=on" GCMA_BAD_BOOT=no
# gcma.sh's checks, in this shell: run, con and res come from it.
# shellcheck source=tests/vm/gcma.sh
. "$(dirname "$0")/gcma.sh"
check "functional: KASAN was on" grep -q "KernelAddressSanitizer initialized" "$con"
check "functional: lockdep was on" grep -q "Lock dependency validator" "$con"
check "functional: the KUnit init_on_alloc case ran on both areas (not skipped)" \
	grep -q "gcma_test_init_on_alloc: pass:2 fail:0 skip:0" "$con"
check "functional: the KUnit hwpoison case ran (not skipped)" \
	sh -c "grep -E 'ok [0-9]+ cc_test_hwpoison' '$con' | grep -qv SKIP"
check "functional: the KUnit release case ran (cleared, unmapped) and passed on gcma" \
	grep -q "gcma_test_release_clears: pass:1 fail:0 skip:1" "$con"
check "functional: init_on_free was on (mem auto-init: heap free:on)" \
	grep -q "mem auto-init: .*heap free:on" "$con"

cat > "$res/stress.scn" <<SCN
; the area full of cached pages, allocations and mixed I/O on 2 vCPUs
[global]
kernel=gcma-debug
setup=gcma
area=64M
memory=384M
cpus=2
scratch=2G
fill=90
alloc-count=0
trace=
script=gcma-stress.sh
append=init_on_alloc=1 init_on_free=1 debug_pagealloc=on page_owner=on STRESS_SECONDS=${STRESS_SECONDS:-30}
timeout=20m

[stress]
SCN
"$CMABENCH" run --results "$res/stress" "$res/stress.scn"
rc=$?
run=$(first "$res"/stress/stress-*/runs/stress-r1)
con="$run/console.log"
check "stress: cmabench run succeeded (exit $rc, status $(val "$run/status"))" [ "$rc" -eq 0 ]
fill=$(tail -n 1 "$run/fill.csv" 2>/dev/null)
check "stress: the area was filled before the stress began ($fill)" \
	sh -c "echo '$fill' | grep -q ',filled'"

# Allocations: how many of each loop succeeded, and how many calls of the
# two loops overlapped in time (both in cma_alloc at once).
for a in small large; do
	s=$(csv_rows "$run/alloc-$a.csv" 'success == 1' | wc -l)
	f=$(csv_rows "$run/alloc-$a.csv" 'success != 1' | wc -l)
	echo "# stress: $a allocations: $s succeeded, $f failed"
	# failures come only from the bitmap's fragmentation by the other loop
	check "stress: at least 90% of the $a allocation loop's requests succeeded ($s of $((s + f)))" \
		sh -c "[ $s -gt 0 ] && [ $((s * 10)) -ge $(((s + f) * 9)) ]"
done
both=$(awk -F, 'FNR == 1 { f++; next }
	f == 1 { s[++n] = $4; e[n] = $4 + $5; next }
	{ for (i = 1; i <= n; i++) if (s[i] < $4 + $5 && $4 < e[i]) { o++; break } }
	END { print o + 0 }' "$run/alloc-small.csv" "$run/alloc-large.csv" 2>/dev/null)
echo "# stress: large allocations that overlapped a small one: $both"
check "stress: allocations of the two loops ran at the same time ($both overlapping)" [ "${both:-0}" -gt 0 ]
used=$(cat "$run/snapshots/after/debug-cma/gcma/used" 2>/dev/null)
check "stress: every page the loops allocated was released (the area's used count after: $used)" \
	[ "${used:-x}" = 0 ]
tb0=$(val "$run/cleancache-start/taken_back"); tb1=$(val "$run/cleancache-end/taken_back")
check "stress: allocations took cached pages back from cleancache (taken_back +$((tb1 - tb0)))" \
	[ "$tb1" -gt "$tb0" ]

line=$(cat "$run/stale-read.txt" 2>/dev/null)
echo "# stress: stale-read: $line"
sed 's/^/# /' "$run/stale-read.err" 2>/dev/null | head -n 3
check "stress: stale-read ran and found no stale, damaged or failed read" \
	sh -c "echo '$line' | grep -q ' stale=0 corrupt=0 errors=0' && ! echo '$line' | grep -q ' reads=0 '"
w=$(cat "$run/dio-window.txt" 2>/dev/null)
echo "# stress: dio-window: $w"
check "stress: dio-window ran its 2 rounds with no stale, damaged or failed read" \
	sh -c "echo '$w' | grep -q ' rounds=2 .* stale=0 corrupt=0 errors=0'"
mh=$(cat "$run/cleancache-end/max_hold_entries" 2>/dev/null)
check "stress: no cleancache lock hold handled more than 256 entries (max_hold_entries ${mh:-missing})" \
	sh -c "[ -n '$mh' ] && [ '$mh' -gt 0 ] && [ '$mh' -le 256 ]"
# lock_stat's columns after the name: con-bounces contentions waittime-min
# waittime-max waittime-total waittime-avg acq-bounces acquisitions
# holdtime-min holdtime-max holdtime-total holdtime-avg (us)
awk '$1 ~ /:$/ && $1 != "class" { printf "# stress: %s (lock_stat, KASAN and lockdep on): holdtime-max %s us, holdtime-avg %s us over %s acquisitions; %s contentions, waittime-max %s us, waittime-total %s us\n", $1, $11, $13, $9, $3, $5, $6 }' "$run/lock_stat.txt" 2>/dev/null
ls=$(awk '$1 == "cc_lock:" { print $11 }' "$run/lock_stat.txt" 2>/dev/null)
check "stress: lock statistics of cleancache's lock were taken (cc_lock holdtime-max ${ls:-missing} us)" [ -n "$ls" ]
check "stress: KASAN and lockdep were on" \
	sh -c "grep -q 'KernelAddressSanitizer initialized' '$con' && grep -q 'Lock dependency validator' '$con'"
splats "$con"
check "stress: no BUG, KASAN report, lockdep or DEBUG_VM warning, or stall on the console" no_splat "$con"

# 3. The use-after-release case alone, in a boot of its own.
"$CMABENCH" run --results "$res/uaf" --set kernel=gcma-debug --set memory=384M \
	--set "append=cma=64M kunit.enable=1 gcma_kunit.uaf=1 kunit.filter_glob=gcma.gcma_test_use_after_release init_on_free=1 debug_pagealloc=on" \
	gcma-kunit > "$res/uaf.log" 2>&1
rc=$?
run=$(first "$res"/uaf/gcma-kunit-*/runs/gcma-r1)
con="$run/console.log"
check "use after release: the boot ran (exit $rc, status $(val "$run/status"))" [ "$rc" -eq 0 ]
check "use after release: the KUnit case ran on gcma and passed" \
	grep -q "gcma_test_use_after_release: pass:1 fail:0 skip:1" "$con"
check "use after release: KASAN reported the read of a released page" \
	grep -q "BUG: KASAN: use-after-free in gcma_test_uaf_fn" "$con"
splats "$con"
check "use after release: the report was announced, and no other splat" no_splat "$con"
