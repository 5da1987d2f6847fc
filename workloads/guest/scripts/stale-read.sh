#!/bin/sh
# Integrity under mixed direct and buffered I/O, run in the guest
# (tests/vm/gcma-stale.sh judges the results on the host). First
# dio-window forces the window of a read during an O_DIRECT write's
# invalidation (5 rounds on a 32 MiB file, pressure from a file twice the
# guest's RAM); then stale-read
# races an O_DIRECT writer and a buffered writer against two buffered
# readers over a file one and a half times the guest's RAM, its hot half
# re-read while resident so that reclaim moves it through cleancache.
# No read may return a block older than a write that completed before the
# read began. Cleancache counters before and after, where the kernel has
# them.
# Environment from init: R (results); STALE_SECONDS (default 45) and
# STALE_MB (default 1.5 x MemTotal) may come from the kernel command line.
set -u
F=/mnt/scratch/stale.dat
# shellcheck source=workloads/guest/scripts/lib.sh
. "$P/lib.sh"
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
MB=${STALE_MB:-$((mem_mb * 3 / 2))}
SECONDS_=${STALE_SECONDS:-45}

counters start
dio-window --file /mnt/scratch/window.dat --size-mb 32 --pressure-file /mnt/scratch/pressure.dat \
	--pressure-mb $((mem_mb * 2)) --rounds 5 > "$R/dio-window.txt" 2> "$R/dio-window.err"
wrc=$?
rm -f /mnt/scratch/window.dat
counters window
echo "file_mb=$MB hot_mb=$((MB / 2)) seconds=$SECONDS_ cpus=$(nproc)" > "$R/stale-read.txt"
stale-read --file "$F" --size-mb "$MB" --hot-mb "$((MB / 2))" --seconds "$SECONDS_" \
	--dio-writers 1 --buf-writers 1 --readers 2 --read-kb 64 >> "$R/stale-read.txt" 2> "$R/stale-read.err"
rc=$?
counters end
rm -f "$F"
[ $wrc -ne 0 ] && exit $wrc
exit $rc
