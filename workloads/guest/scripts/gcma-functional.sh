#!/bin/sh
# Functional check of the GCMA series, run in the guest (tests/vm/gcma.sh
# judges the results on the host):
#  1. write a file larger than guest RAM with fio verification headers and
#     read it twice, by two readers at once, so that every page is used
#     twice while resident: it is activated (cleancache keeps only workingset
#     pages, as the RFC does) and reclaim must store it; then random re-reads
#     must hit. Two sequential passes would store nothing: a page read once
#     per pass over a file larger than memory never becomes workingset;
#  2. with the page cache hot and a re-read loop running, allocate the whole
#     gcma area ten times, then the whole cma area (same boot) ten times;
#  3. verify the file with fio: cleancache must never return stale data;
#  4. a 4 KiB O_DIRECT write into the file, whose pages cleancache now
#     holds, must drop the copy of that block only; then the file is
#     overwritten, truncated
#     and rewritten, deleted and created again, each time with a new byte
#     pattern; being larger than RAM, it is read back partly from disk or
#     cleancache, and fio's pattern check must find the new bytes only (a
#     stale cleancache copy would bring the old ones back).
# Environment from init: R (results), AREA; FILE_MB (default 384).
set -u
F=/mnt/scratch/verify.dat
MB=${FILE_MB:-384}
# shellcheck source=workloads/guest/scripts/lib.sh
. "$P/lib.sh"

pages_of() { # area name -> its size in pages
	cat "/sys/kernel/debug/cma/$1/count"
}

# Reads F twice at once: every page is used twice while resident, so it is
# workingset when reclaim evicts it.
two_readers() {
	cat "$F" > /dev/null &
	cat "$F" > /dev/null
	wait
}

job="--eta=never --name=verify --filename=$F --rw=write --bs=1M --size=${MB}M --verify=crc32c"

counters start
# shellcheck disable=SC2086 # fio's options, split into words on purpose
fio $job --do_verify=0 --output-format=json --output="$R/fio-write.json" || exit 1
sync
two_readers
counters after-reads
fio --eta=never --name=reread --filename="$F" --rw=randread --bs=4k --size="${MB}M" \
	--runtime=10 --time_based=1 --invalidate=0 --output-format=json --output="$R/fio-reread.json"
counters after-rereads

( while :; do cat "$F" > /dev/null; done ) &
loader=$!
sleep 2
cma-alloc --area gcma --count 10 --pages "$(pages_of gcma)" --out "$R/alloc-gcma.csv"
rc_g=$?
cma-alloc --area reserved --count 10 --pages "$(pages_of reserved)" --out "$R/alloc-cma.csv"
rc_c=$?
# One page more than the area: a clean failure (an errno in the CSV), no BUG.
cma-alloc --area gcma --count 1 --pages $(($(pages_of gcma) + 1)) --out "$R/alloc-gcma-over.csv"
kill "$loader"
wait "$loader" 2>/dev/null
counters after-alloc

# shellcheck disable=SC2086 # fio's options, split into words on purpose
fio $job --verify_only --output-format=json --output="$R/fio-verify.json"
rc_v=$?
counters end

# Step 4 mutates F, whose pages cleancache holds now (cached_pages in
# cleancache-mutate-start): a stale copy restored after a mutation would
# bring back bytes of the previous pattern, and fio's check would fail.
pattern() { # verb pattern: write or check the whole of F in one byte pattern
	only=
	[ "$1" = check ] && only=--verify_only
	fio --eta=never --name=mutate --filename="$F" --rw=write --bs=1M --size="${MB}M" \
		--verify=pattern --verify_pattern="$2" --do_verify=0 ${only:+"$only"} \
		--output-format=json --output="$R/fio-mutate-$1-$2.json"
}
mutated() { # name pattern: F was just changed; check it (larger than RAM)
	sync
	h=$(cat "$CC/hits")
	pattern check "$2"
	echo "$1 pattern=$2 rc=$? hits_during_check=$(($(cat "$CC/hits") - h))" >> "$R/mutate.txt"
}
: > "$R/mutate.txt"
# The full-area allocations took the cache's pages back: fill it again.
two_readers
counters mutate-start
# A 4 KiB O_DIRECT write drops cleancache's copy of its own block, not the
# whole file's (cached_pages before and after in dio.txt), and a buffered
# read of the block then returns the new bytes.
c0=$(cat "$CC/cached_pages")
fio --eta=never --name=dio --filename=$F --rw=write --bs=4k --size=4k --offset=1M \
	--direct=1 --buffer_pattern=0xe5 --output-format=json --output="$R/fio-dio.json"
rc_d=$?
c1=$(cat "$CC/cached_pages")
head -c 4096 /dev/zero | tr '\0' '\345' > /tmp/e5
dd if=$F bs=4096 skip=256 count=1 2>/dev/null | cmp -s - /tmp/e5
echo "before=$c0 after=$c1 rc=$rc_d readback=$?" > "$R/dio.txt"
pattern write 0xb2
mutated overwrite 0xb2
truncate -s 0 $F
pattern write 0xc3
mutated truncate 0xc3
rm -f $F
pattern write 0xd4
mutated delete 0xd4
counters mutate-end

# An inode evicted while its file lives on keeps its copies: F read by two
# readers at once (its pages workingset, stored by reclaim), the page cache
# dropped (drop_caches=1), the inodes pruned (drop_caches=2), then F read
# again: the read hits
# cleancache (the first series invalidated a file whenever its inode was
# evicted).
evict_load() {
	two_readers
}
evict_load
counters evict-before
# the page cache first (its workingset pages go to cleancache), so that the
# inode has no page left and the icache shrinker evicts it; twice, since a
# recently referenced inode is passed over once
sync
echo 1 > /proc/sys/vm/drop_caches
counters evict-dropped
echo 2 > /proc/sys/vm/drop_caches
echo 2 > /proc/sys/vm/drop_caches
counters evict-pruned
cat $F > /dev/null
counters evict-reread
# A file system with cached files is unmounted: cleancache drops them in
# batches of at most 256 entries per lock hold (max_hold_entries).
evict_load
counters umount-before
dev=$(awk '$2 == "/mnt/scratch" { print $1 }' /proc/mounts)
umount /mnt/scratch && mount -t ext4 "$dev" /mnt/scratch
echo "dev=$dev rc=$?" > "$R/umount.txt"
counters umount-after
# The counters under the upstream series' names (/sys/kernel/mm/cleancache),
# each read beside its debugfs twin: "sysfs-name value debugfs-name value";
# then each pool's directory: "pool NAME size cached recalled".
S=/sys/kernel/mm/cleancache
if [ -d $S ]; then
	for pair in stored:stores skipped:failed_stores restored:hits missed:misses \
		reclaimed:evicted recalled:taken_back invalidated:invalidates cached:cached_pages; do
		echo "${pair%%:*} $(cat $S/${pair%%:*}) ${pair#*:} $(cat "$CC/${pair#*:}")"
	done > "$R/sysfs-cleancache.txt"
	for d in "$S"/*/; do
		echo "pool $(basename "$d") $(cat "$d/size") $(cat "$d/cached") $(cat "$d/recalled")"
	done >> "$R/sysfs-cleancache.txt"
	echo "pool_pages $(cat "$CC/pool_pages")" >> "$R/sysfs-cleancache.txt"
fi

echo "alloc_gcma_rc=$rc_g alloc_cma_rc=$rc_c verify_rc=$rc_v" > "$R/functional.txt"
[ "$rc_g" -eq 0 ] && [ "$rc_c" -eq 0 ] && [ "$rc_v" -eq 0 ]
