#!/bin/sh
# Stale entries against the pool, run in the guest (tests/vm/gcma-stale-
# bound.sh judges it): cycles files totalling 16 times the pool's size
# through cleancache, each kept open with one live page, while allocations
# take the area back. The place of every page is forced, so that the
# condition holds whatever the series does with stale entries:
#  - the low half of the GCMA area is held (debugfs alloc: first fit) while
#    page 0 of file i is stored, so that page (the file's live anchor) goes
#    to the high half;
#  - the low half is given back: its pages head the pool's free list, and
#    the rest of file i (half the pool) is stored into them;
#  - the next cycle holds the low half again: file i's pages there are
#    taken back and leave their entries stale; its anchor keeps it alive.
# A series that keeps a taken-back page's entry until the index is looked
# up again accumulates half a pool of stale entries per cycle; a bounded
# one never holds more than the pool's pages. Writes $R/stale-cycle.txt,
# one line per cycle, read right after the take-back:
#   cycle=N stale_slots=N cached_pages=N taken_back=N pool_pages=N
# Environment from init: R (results); STALE_CYCLES (default 32).
set -u
# shellcheck source=workloads/guest/scripts/lib.sh
. "$P/lib.sh"
A=/sys/kernel/debug/cma/gcma
K=${STALE_CYCLES:-32}
POOL=$(cat "$CC/pool_pages")
H=$(($(cat "$A/count") / 2))
D=/mnt/scratch/stale-cycle
: > "$R/stale-cycle.txt"
echo "pool_pages=$POOL half=$H cycles=$K file_pages=$((H + 1))" > "$R/stale-cycle.head"

mkdir -p "$D"
i=1
while [ $i -le "$K" ]; do
	dd if=/dev/zero of="$D/f$i" bs=4096 count=$((H + 1)) 2>/dev/null
	i=$((i + 1))
done
sync
# Written once, the pages are not workingset: dropped, not stored
echo 3 > /proc/sys/vm/drop_caches

# Kept open, so that no inode eviction touches the files' entries
pids=
i=1
while [ $i -le "$K" ]; do
	# shellcheck disable=SC2217 # sleep holds the file open (a reader), it reads nothing
	sleep 100000 < "$D/f$i" &
	pids="$pids $!"
	i=$((i + 1))
done

counters cycle-start
tb0=$(cat "$CC/taken_back")
i=1
while [ $i -le "$K" ]; do
	# Takes back the low half: file i-1's pages there go stale
	echo "$H" > "$A/alloc" || { echo "cycle $i: alloc of $H pages failed" >&2; break; }
	echo "cycle=$i stale_slots=$(cat "$CC/stale_slots" 2>/dev/null || echo -) cached_pages=$(cat "$CC/cached_pages") taken_back=$(($(cat "$CC/taken_back") - tb0)) pool_pages=$POOL" >> "$R/stale-cycle.txt"
	# Read twice, then reclaimed: workingset, stored (lib.sh, cc_reclaim)
	dd if="$D/f$i" bs=4096 count=1 2>/dev/null > /dev/null
	dd if="$D/f$i" bs=4096 count=1 2>/dev/null > /dev/null
	cc_reclaim 1 >> "$R/stale-cycle.log"
	echo "$H" > "$A/free"
	dd if="$D/f$i" bs=4096 skip=1 2>/dev/null > /dev/null
	dd if="$D/f$i" bs=4096 skip=1 2>/dev/null > /dev/null
	cc_reclaim "$H" >> "$R/stale-cycle.log"
	i=$((i + 1))
done
counters cycle-end
# shellcheck disable=SC2086 # the pids, one word each
kill $pids 2>/dev/null
wait 2>/dev/null
rm -rf "$D" /mnt/scratch/cc-pressure
