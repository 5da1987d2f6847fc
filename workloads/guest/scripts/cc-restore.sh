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
# Each round also times the same readers on the files while the page
# cache holds them (pc_mib_s: page-cache hits, the cost a hit is judged
# against). With CC_RESTORE_PROFILE=N, N more rounds run the same two
# reads under perf (cpu-clock samples on every vCPU at 997 Hz, kernel call
# chains), folded into $R/cc-profile-pc-N.folded and
# $R/cc-profile-cc-N.folded ("comm;root;...;leaf count"; the samples'
# innermost frames with their offsets in .leaf beside them), with
# $R/cc-profile.txt ("round=N kind=pc|cc hits=N seconds=S mib_s=S
# samples=N hz=997"): their throughput is the profiled one, never a timed
# round's (scripts/restore-profile). With CC_RESTORE_CLOCK=N, N more
# rounds read with the kernel's restore timing on (debugfs time_restores,
# where the series has it): $R/cc-restore-time.txt ("round=N hits=N
# timed=N batches=N lookup_ns=N locked_ns=N copy_ns=N seconds=S mib_s=S";
# batches: the restores' calls that hit, 0 on a kernel that does not count
# them, before 0040).
# With CC_RESTORE_MISSES=1, each timed round then times two more reads of
# the same size, the page cache and cleancache emptied first: sparse files
# (hole_mib_s: the page cache's own work for a page it does not hold,
# allocation, insertion, readahead, zeroing, and the copy to the reader,
# with nothing to fetch; holes are never stored) and the same files from
# the disk (disk_mib_s; disk_hits, cleancache hits meanwhile, should be 0).
# Environment from init: R (results); CC_RESTORE_MB (per file, default
# 24), CC_RESTORE_ROUNDS (default 3), CC_RESTORE_PROFILE (default 0),
# CC_RESTORE_CLOCK (default 0), CC_RESTORE_MISSES (default 0) may come
# from the kernel command line.
set -u
# shellcheck source=workloads/guest/scripts/lib.sh
. "$P/lib.sh"
MB=${CC_RESTORE_MB:-24}
ROUNDS=${CC_RESTORE_ROUNDS:-3}
PROFILE=${CC_RESTORE_PROFILE:-0}
CLOCK=${CC_RESTORE_CLOCK:-0}
MISSES=${CC_RESTORE_MISSES:-0}
FLUSH=/sys/module/cleancache/parameters/flush
HZ=997
N=$(nproc)
: > "$R/cc-restore.txt"
: > "$R/cc-profile.txt"
: > "$R/cc-restore-time.txt"

files=
holes=
i=1
while [ $i -le "$N" ]; do
	files="$files /mnt/scratch/restore-$i.dat"
	dd if=/dev/urandom of=/mnt/scratch/restore-$i.dat bs=1M count="$MB" 2>/dev/null
	holes="$holes /mnt/scratch/hole-$i.dat"
	[ "$MISSES" = 1 ] && truncate -s "${MB}M" /mnt/scratch/hole-$i.dat
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

# mib_s OUT: MiB/s from read-files' output OUT
mib_s() {
	echo "$1" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { s = v["seconds"]; printf "%.1f", (s > 0 ? v["bytes"] / 1048576 / s : 0) }'
}

# empty_caches: the page cache dropped and cleancache flushed (where the
# kernel has the flush knob), so that the next read finds neither
empty_caches() {
	echo 1 > /proc/sys/vm/drop_caches
	[ -w "$FLUSH" ] && echo 1 > "$FLUSH"
}

# misses: the readers' reads of the sparse files and of their own files,
# the page cache and cleancache emptied before each; prints
# "hole_mib_s=S disk_mib_s=S disk_hits=N", or nothing without MISSES=1
misses() {
	[ "$MISSES" = 1 ] || return 0
	empty_caches
	# shellcheck disable=SC2086 # one word per file
	_h=$(read-files $holes) || { echo "cc-restore: read-files failed: $_h" >&2; return 1; }
	empty_caches
	_h0=$(cat "$CC/hits")
	# shellcheck disable=SC2086 # one word per file
	_d=$(read-files $files) || { echo "cc-restore: read-files failed: $_d" >&2; return 1; }
	echo "hole_mib_s=$(mib_s "$_h") disk_mib_s=$(mib_s "$_d") disk_hits=$(($(cat "$CC/hits") - _h0))"
}

# profiled ROUND: whether round ROUND is a profile round
profiled() {
	[ "$1" -gt "$ROUNDS" ] && [ "$1" -le $((ROUNDS + PROFILE)) ]
}

# restore_time: the kernel's restore timing sums, one line, or nothing
restore_time() {
	[ -r "$CC/restore_time" ] && awk '{ printf "%s=%s ", $1, $2 }' "$CC/restore_time"
}

# reads KIND ROUND: the readers' read of every file, timed; under perf in a
# profile round, its samples folded into $R/cc-profile-KIND-N.folded.
# Prints read-files' output.
reads() {
	if ! profiled "$2"; then
		# shellcheck disable=SC2086 # one word per file
		read-files $files
		return
	fi
	# shellcheck disable=SC2086 # one word per file
	perf record -q -a -g -F $HZ -e cpu-clock -B -N -o /tmp/cc.perf -- read-files $files \
		2> /tmp/cc-perf.err
	_rc=$?
	# frames come leaf first, "ADDR SYM+0xOFF": the stacks without offsets,
	# and each sample's leaf with its offset apart (where in a function)
	_f="$R/cc-profile-$1-$(($2 - ROUNDS))"
	perf script -i /tmp/cc.perf -F comm,ip,sym,symoff 2>> /tmp/cc-perf.err | awk -v leafs="$_f.leaf" '
		function flush() { if (comm != "") { n[comm ";" st]++; l[leaf]++ } comm = ""; st = "" }
		/^\t/ { s = $2; if (st == "") leaf = s; sub(/\+0x[0-9a-f]+$/, "", s)
			st = (st == "" ? s : s ";" st); next }
		NF { flush(); comm = $1; leaf = ""; next }
		{ flush() }
		END { flush(); for (k in n) print k, n[k]; for (k in l) print k, l[k] > leafs }' > "$_f.folded"
	cat /tmp/cc-perf.err >> "$R/cc-restore.log"
	rm -f /tmp/cc.perf /tmp/cc-perf.err
	return $_rc
}

# samples FILE: the samples a folded profile holds
samples() {
	awk '{ s += $NF } END { print s + 0 }' "$1"
}

r=1
while [ $r -le $((ROUNDS + PROFILE + CLOCK)) ]; do
	if profiled $r && ! command -v perf > /dev/null; then
		echo "cc-restore: no perf in the guest: no profile" >&2
		r=$((ROUNDS + PROFILE + 1))
		continue
	fi
	if [ $r -gt $((ROUNDS + PROFILE)) ] && [ ! -w "$CC/time_restores" ]; then
		echo "cc-restore: the kernel has no restore timing: no clock rounds" >&2
		break
	fi
	i=1
	while [ $i -le "$N" ]; do
		cat /mnt/scratch/restore-$i.dat > /dev/null
		cat /mnt/scratch/restore-$i.dat > /dev/null
		i=$((i + 1))
	done
	# every page in the page cache: the readers' page-cache hits
	pc=$(reads pc $r) || { echo "cc-restore: read-files failed: $pc" >&2; exit 1; }
	if profiled $r; then
		p=$((r - ROUNDS))
		echo "round=$p kind=pc hits=0 $(echo "$pc" | sed -n 's/.*\(seconds=[0-9.]*\).*/\1/p')" \
			"mib_s=$(mib_s "$pc") samples=$(samples "$R/cc-profile-pc-$p.folded") hz=$HZ" \
			>> "$R/cc-profile.txt"
	fi
	cc_reclaim $((N * MB * 256 * 9 / 10)) >> "$R/cc-restore.log"
	# The pressure file's pages go now: evicted inside the timed reads,
	# each would take cleancache's lock for its invalidation
	echo 1 > /proc/sys/vm/drop_caches
	counters restore-$r-before
	h0=$(cat "$CC/hits")
	[ -w /proc/lock_stat ] && echo 0 > /proc/lock_stat
	clock=$r
	[ $r -gt $((ROUNDS + PROFILE)) ] || clock=
	if [ -n "$clock" ]; then
		t0=$(restore_time)
		echo 1 > "$CC/time_restores"
	fi
	rd=$(reads cc $r) || { echo "cc-restore: read-files failed: $rd" >&2; exit 1; }
	if [ -n "$clock" ]; then
		echo 0 > "$CC/time_restores"
		t1=$(restore_time)
	fi
	ls=$(lockstat)
	h1=$(cat "$CC/hits")
	counters restore-$r-after
	s=$(echo "$rd" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
	if [ -n "$clock" ]; then
		# the sums' growth over this round's reads
		echo "$t0 | $t1" | awk -v r=$((r - ROUNDS - PROFILE)) -v h=$((h1 - h0)) -v s="${s:-0}" '{
			side = 0
			for (i = 1; i <= NF; i++) {
				if ($i == "|") { side = 1; continue }
				split($i, kv, "="); v[side, kv[1]] = kv[2]
			}
			printf "round=%d hits=%d timed=%d batches=%d lookup_ns=%d locked_ns=%d copy_ns=%d seconds=%.4f mib_s=%.1f\n",
				r, h, v[1, "hits"] - v[0, "hits"], v[1, "batches"] - v[0, "batches"], v[1, "lookup_ns"] - v[0, "lookup_ns"],
				v[1, "locked_ns"] - v[0, "locked_ns"], v[1, "copy_ns"] - v[0, "copy_ns"],
				s, (s > 0 ? h * 4 / 1024 / s : 0) }' >> "$R/cc-restore-time.txt"
	elif profiled $r; then
		awk -v r=$((r - ROUNDS)) -v h=$((h1 - h0)) -v s="${s:-0}" -v hz=$HZ \
			-v n="$(samples "$R/cc-profile-cc-$((r - ROUNDS)).folded")" 'BEGIN {
			printf "round=%d kind=cc hits=%d seconds=%.4f mib_s=%.1f samples=%d hz=%d\n",
				r, h, s, (s > 0 ? h * 4 / 1024 / s : 0), n, hz }' >> "$R/cc-profile.txt"
	else
		ms=$(misses) || exit 1
		awk -v r="$r" -v n="$N" -v mb="$MB" -v h=$((h1 - h0)) -v s="${s:-0}" -v ls="$ls" \
			-v pc="$(mib_s "$pc")" -v ms="$ms" 'BEGIN {
			printf "round=%d readers=%d mib=%d hits=%d seconds=%.4f mib_s=%.1f %s pc_mib_s=%s%s\n",
				r, n, n * mb, h, s, (s > 0 ? h * 4 / 1024 / s : 0), ls, pc, (ms == "" ? "" : " " ms) }' >> "$R/cc-restore.txt"
	fi
	r=$((r + 1))
done
rm -f /mnt/scratch/restore-*.dat /mnt/scratch/hole-*.dat /mnt/scratch/cc-pressure
