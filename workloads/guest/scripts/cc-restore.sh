#!/bin/sh
# Cleancache restore throughput, run in the guest: one reader per vCPU,
# each on a file of its own, all of whose pages sit in cleancache, read at
# once; MiB/s of hits (pages restored x 4 KiB / wall seconds from the
# first reader's start to the last one's end: read-files, monotonic
# clock), and what cleancache's locks cost meanwhile when the kernel keeps
# lock statistics (CONFIG_LOCK_STAT: contentions, wait and hold times over
# the timed reads only). Each round first
# reads each file twice (active) and pushes them through reclaim into
# cleancache (lib.sh, cc_reclaim: drop_caches would drop them unstored);
# restores are exclusive, so every round needs that again. Writes
# $R/cc-restore.txt, one line per round:
#   round=N readers=N mib=N hits=N seconds=S mib_s=S contentions=N
#   waittime_total_us=S holdtime_max_us=S acquisitions=N locks=N
# Environment from init: R (results); CC_RESTORE_MB (per file, default
# 24), CC_RESTORE_ROUNDS (default 3) may come from the kernel command line.
set -u
# shellcheck source=workloads/guest/scripts/lib.sh
. "$P/lib.sh"
MB=${CC_RESTORE_MB:-24}
ROUNDS=${CC_RESTORE_ROUNDS:-3}
N=$(nproc)
: > "$R/cc-restore.txt"

files=
i=1
while [ $i -le "$N" ]; do
	files="$files /mnt/scratch/restore-$i.dat"
	dd if=/dev/urandom of=/mnt/scratch/restore-$i.dat bs=1M count="$MB" 2>/dev/null
	i=$((i + 1))
done
sync
# Pages written are not mapped to disk until read back (cleancache would
# drop them unstored); written once, they are not workingset: dropped
echo 3 > /proc/sys/vm/drop_caches

# lock_stat's columns after a class name: con-bounces contentions
# waittime-min waittime-max waittime-total waittime-avg acq-bounces
# acquisitions holdtime-min holdtime-max holdtime-total holdtime-avg (us).
# Summed over cleancache's locks: cc_lock, and where the series splits it
# (0025) the files' cc_file_lock, the hashes' cc_hash_lock and cc_fs_lock;
# the longest hold is the longest of any of them.
lockstat() {
	[ -r /proc/lock_stat ] || { echo "contentions=- waittime_total_us=- holdtime_max_us=- acquisitions=- locks=-"; return; }
	awk '$1 ~ /^(cc_lock|cc_fs_lock|(.*->)?cc_file_lock|.*->cc_hash_lock):$/ {
			c += $3; w += $6; a += $9; if ($11 > h) h = $11; n++ }
		END { printf "contentions=%d waittime_total_us=%.2f holdtime_max_us=%.2f acquisitions=%d locks=%d", c, w, h, a, n }' /proc/lock_stat
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
	# shellcheck disable=SC2086 # one word per file
	rd=$(read-files $files) || { echo "cc-restore: read-files failed: $rd" >&2; exit 1; }
	ls=$(lockstat)
	h1=$(cat "$CC/hits")
	counters restore-$r-after
	s=$(echo "$rd" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
	awk -v r="$r" -v n="$N" -v mb="$MB" -v h=$((h1 - h0)) -v s="${s:-0}" -v ls="$ls" 'BEGIN {
		printf "round=%d readers=%d mib=%d hits=%d seconds=%.4f mib_s=%.1f %s\n",
			r, n, n * mb, h, s, (s > 0 ? h * 4 / 1024 / s : 0), ls }' >> "$R/cc-restore.txt"
	r=$((r + 1))
done
rm -f /mnt/scratch/restore-*.dat /mnt/scratch/cc-pressure
