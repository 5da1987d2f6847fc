#!/bin/sh
# Each allocation path as a device's (cma-alloc --path; alloc-path.h), run
# in the guest; tests/vm/paths.sh judges on the host:
#  1. requests of 1024 and 8192 pages through the heap, the DMA API (our
#     module), debugfs at alignment 0 and at 3, each buffer read back
#     (--verify): alloc-TAG.csv, the alignment each cma_alloc_start carried
#     (paths-align-TAG.csv: count,align), the area's used pages before and
#     after (paths-used.csv: nothing may stay allocated);
#  2. the area held by one allocation but its last 256 pages, a 512-page
#     dma request cannot be served from the area: dma-direct falls back to
#     the buddy allocator, which cma-alloc must record as a CMA failure
#     (alloc-dma-full.csv).
# The heaps the kernel registered go to paths-heaps: the default area's.
# Environment from init: R (results), P (plan), AREA.
set -u
T=/sys/kernel/tracing
D=/sys/kernel/debug/cma/$AREA

ls /dev/dma_heap > "$R/paths-heaps" 2>&1

# The cma_alloc_start events of one step, as count,align rows.
trace_on() {
	echo > $T/trace
	echo 1 > $T/events/cma/cma_alloc_start/enable
}

trace_take() {
	echo 0 > $T/events/cma/cma_alloc_start/enable
	sed -n 's/.*cma_alloc_start: .*count=\([0-9]*\) align=\([0-9]*\).*/\1,\2/p' $T/trace \
		> "$R/paths-align-$1.csv"
}

# one TAG OPTIONS...: 1024 and 8192 pages on a path, read back
one() {
	tag=$1
	shift
	u0=$(cat "$D/used")
	trace_on
	cma-alloc --area "$AREA" --pages 1024,8192 --count 1 --verify \
		--out "$R/alloc-$tag.csv" "$@"
	rc=$?
	trace_take "$tag"
	echo "$tag,$rc,$u0,$(cat "$D/used")" >> "$R/paths-used.csv"
}

echo "tag,rc,used_before,used_after" > "$R/paths-used.csv"
one heap --path heap
one dma --path dma
one debugfs0 --path debugfs
one debugfs3 --path debugfs --align 3

# The area held but its last 256 pages: a 512-page dma request (aligned
# to 256 pages) finds no room in it.
u0=$(cat "$D/used")
held=$(($(cat "$D/count") - 256))
echo "$held" > "$D/alloc" || echo "alloc-paths: could not hold $held pages" >&2
cat "$D/used" > "$R/paths-held"
trace_on
cma-alloc --area "$AREA" --pages 512 --count 1 --path dma --out "$R/alloc-dma-full.csv"
trace_take dma-full
echo "$held" > "$D/free"
echo "dma-full,0,$u0,$(cat "$D/used")" >> "$R/paths-used.csv"
