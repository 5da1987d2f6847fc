#!/bin/sh
# Stress of the GCMA series for the debug kernel (tests/vm/gcma-debug.sh
# judges the console and the results on the host): with the area kept full
# of cached pages by the fill, two cma-alloc loops take ranges of the GCMA
# area back at once (small and large requests, held 20 ms) while stale-read
# races O_DIRECT and buffered writers against buffered readers on a file
# larger than RAM, and then dio-window forces reads into an O_DIRECT
# write's invalidation, both with the allocations still running. Lockdep,
# KASAN and DEBUG_VM watch every path the two vCPUs take; no read may be
# stale. The two loops free under one lock: debugfs keeps one list of
# allocations per area, and a free that finds it emptied by the other
# loop's free frees nothing (mm/cma_debug.c), which leaked most of the
# area in the first try of this test. Environment from init: R (results),
# AREA; STRESS_SECONDS (default 30) may come from the kernel command line.
set -u
# shellcheck source=workloads/guest/scripts/lib.sh
. "$P/lib.sh"
S=${STRESS_SECONDS:-30}
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
area_pages=$(cat "/sys/kernel/debug/cma/$AREA/count")

counters start
# lock statistics (CONFIG_LOCK_STAT) from here on: cleancache's lock's
# longest hold and its waits, copied at the end
[ -w /proc/lock_stat ] && echo 0 > /proc/lock_stat
cma-alloc --area "$AREA" --loop --count 1 --pages 1,16,256,1024 --hold-ms 20 \
	--interval-ms 10 --seed 1 --free-lock /tmp/cma-free.lock --out "$R/alloc-small.csv" > "$R/alloc-small.log" 2>&1 &
small=$!
cma-alloc --area "$AREA" --loop --count 1 --pages 4096,$((area_pages / 4)),$((area_pages / 2)) \
	--hold-ms 20 --interval-ms 10 --seed 2 --free-lock /tmp/cma-free.lock --out "$R/alloc-large.csv" > "$R/alloc-large.log" 2>&1 &
large=$!
stale-read --file /mnt/scratch/stale.dat --size-mb $((mem_mb * 3 / 2)) --hot-mb $((mem_mb * 3 / 4)) \
	--seconds "$S" --dio-writers 1 --buf-writers 1 --readers 2 --read-kb 64 \
	> "$R/stale-read.txt" 2> "$R/stale-read.err"
rc=$?
rm -f /mnt/scratch/stale.dat
counters after-stale
dio-window --file /mnt/scratch/window.dat --size-mb 32 --pressure-file /mnt/scratch/pressure.dat \
	--pressure-mb $((mem_mb * 2)) --rounds 2 > "$R/dio-window.txt" 2> "$R/dio-window.err"
wrc=$?
rm -f /mnt/scratch/window.dat
kill "$small" "$large"
wait "$small" "$large"
counters end
# cleancache's locks: cc_lock, and the per-file, per-hash and table locks
[ -r /proc/lock_stat ] && grep -E '^ *(class name|cc_lock:|cc_fs_lock:|([^ ]*->)?cc_(file|hash)_lock:)' /proc/lock_stat > "$R/lock_stat.txt"
[ $wrc -ne 0 ] && exit $wrc
exit $rc
