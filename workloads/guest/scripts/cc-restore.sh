#!/bin/sh
# Cleancache restore throughput, run in the guest: one reader per vCPU,
# each on a file of its own, all of whose pages sit in cleancache, read at
# once; MiB/s of hits (pages restored x 4 KiB / wall seconds of the
# slowest reader), and what cleancache's lock cost meanwhile when the
# kernel keeps lock statistics (CONFIG_LOCK_STAT: contentions, wait and
# hold times of cc_lock over the timed reads only). Each round first
# reads each file twice (active) and pushes them through reclaim into
# cleancache (lib.sh, cc_reclaim: drop_caches would drop them unstored);
# restores are exclusive, so every round needs that again. Writes
# $R/cc-restore.txt, one line per round:
#   round=N readers=N mib=N hits=N seconds=S mib_s=S contentions=N
#   waittime_total_us=S holdtime_max_us=S acquisitions=N
# Environment from init: R (results); CC_RESTORE_MB (per file, default
# 24), CC_RESTORE_ROUNDS (default 3) may come from the kernel command line.
set -u
. "$P/lib.sh"
MB=${CC_RESTORE_MB:-24}
ROUNDS=${CC_RESTORE_ROUNDS:-3}
N=$(nproc)
: > "$R/cc-restore.txt"

i=1
while [ $i -le "$N" ]; do
	dd if=/dev/urandom of=/mnt/scratch/restore-$i.dat bs=1M count="$MB" 2>/dev/null
	i=$((i + 1))
done
sync
# Pages written are not mapped to disk until read back (cleancache would
# drop them unstored); written once, they are not workingset: dropped
echo 3 > /proc/sys/vm/drop_caches

# lock_stat's columns after "cc_lock:": con-bounces contentions waittime-min
# waittime-max waittime-total waittime-avg acq-bounces acquisitions
# holdtime-min holdtime-max holdtime-total holdtime-avg (us)
lockstat() {
	[ -r /proc/lock_stat ] || { echo "contentions=- waittime_total_us=- holdtime_max_us=- acquisitions=-"; return; }
	awk '$1 == "cc_lock:" { printf "contentions=%s waittime_total_us=%s holdtime_max_us=%s acquisitions=%s", $3, $6, $11, $9; f = 1 }
		END { if (!f) printf "contentions=0 waittime_total_us=0 holdtime_max_us=0 acquisitions=0" }' /proc/lock_stat
}

r=1
while [ $r -le "$ROUNDS" ]; do
	i=1
	while [ $i -le "$N" ]; do
		cat /mnt/scratch/restore-$i.dat > /dev/null
		cat /mnt/scratch/restore-$i.dat > /dev/null
		i=$((i + 1))
	done
	cc_reclaim $((N * MB * 256 * 9 / 10)) >> "$R/cc-restore.log"
	# The pressure file's pages go now: evicted inside the timed reads,
	# each would take cleancache's lock for its invalidation
	echo 1 > /proc/sys/vm/drop_caches
	counters restore-$r-before
	h0=$(cat "$CC/hits")
	[ -w /proc/lock_stat ] && echo 0 > /proc/lock_stat
	t0=$(cut -d' ' -f1 /proc/uptime)
	i=1
	while [ $i -le "$N" ]; do
		cat /mnt/scratch/restore-$i.dat > /dev/null &
		i=$((i + 1))
	done
	wait
	t1=$(cut -d' ' -f1 /proc/uptime)
	ls=$(lockstat)
	h1=$(cat "$CC/hits")
	counters restore-$r-after
	awk -v r="$r" -v n="$N" -v mb="$MB" -v h=$((h1 - h0)) -v t0="$t0" -v t1="$t1" -v ls="$ls" 'BEGIN {
		s = t1 - t0
		printf "round=%d readers=%d mib=%d hits=%d seconds=%.2f mib_s=%.1f %s\n",
			r, n, n * mb, h, s, (s > 0 ? h * 4 / 1024 / s : 0), ls }' >> "$R/cc-restore.txt"
	r=$((r + 1))
done
rm -f /mnt/scratch/restore-*.dat /mnt/scratch/cc-pressure
