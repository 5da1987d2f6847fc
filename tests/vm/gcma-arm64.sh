#!/bin/sh
# VM test of the GCMA series on an arm64 guest (QEMU virt, TCG on an x86
# host), the RFC's own integration path: the GCMA area is a device-tree
# reserved-memory node (shared-dma-pool, reusable, "guarantee"), not gcma=.
# Runs every check of tests/vm/gcma.sh on it, then checks that the area came
# from the device tree, and that a device-tree area without "guarantee"
# stays a plain CMA area on the same kernel; then tests/vm/gcma-stale.sh's
# integrity checks on arm64, and tests/vm/paths.sh's allocation paths.
# Prints TAP.
: "${CMABENCH:?set by make check}"
: "${TESTS_BUILDDIR:?set by make check}"
if [ "${CMABENCH_ARM64:-no}" != yes ]; then
	echo "ok 1 # SKIP arm64 guests are not configured (scripts/install-deps --arm64, then ./configure)"
	exit 0
fi

export GCMA_ARCH=arm64
# gcma.sh's checks, in this shell: run, con and res come from it.
# shellcheck source=tests/vm/gcma.sh
. "$(dirname "$0")/gcma.sh"

# The area came from the device tree: no gcma= on the command line, a
# reserved-memory node with "guarantee" in the run's tree, the kernel's
# reserved-memory and cleancache lines on the console, gcma reads 1.
dts="$run/devicetree.dts"
check "the run's device tree source is kept in its results ($dts)" [ -s "$dts" ]
check "its reserved-memory node gcma is a reusable shared-dma-pool with guarantee" \
	sh -c "awk '/^\t\t(cmb_area: )?gcma \{/,/\};/' '$dts' | grep -q 'compatible = \"shared-dma-pool\"' &&
		awk '/^\t\t(cmb_area: )?gcma \{/,/\};/' '$dts' | grep -q 'reusable;' &&
		awk '/^\t\t(cmb_area: )?gcma \{/,/\};/' '$dts' | grep -q 'guarantee;'"
check "the kernel command line has no gcma=" \
	sh -c "grep 'Kernel command line:' '$con' | grep -qv 'gcma='"
line=$(grep -E 'OF: reserved mem: initialized node gcma, compatible id shared-dma-pool' "$con" | head -n 1)
echo "# console: $line"
check "the kernel initialized the device tree's gcma node as a shared-dma-pool" [ -n "$line" ]
line=$(grep -E "cleancache: registered 'gcma' backend" "$con" | head -n 1)
echo "# console: $line"
check "the device tree's area registered as a cleancache backend (GCMA)" [ -n "$line" ]
check "/sys/kernel/mm/cma/gcma/gcma reads 1" grep -qx 1 "$run/snapshots/before/sys-cma/gcma/gcma"
check "the run's metadata says arch arm64" grep -qE '"arch": ?"arm64"' "$run/metadata.json"

# The same kernel, a device-tree area without "guarantee" (setup=cma: the
# default CMA area, called reserved): a plain CMA area that allocates
# through migration, no cleancache backend.
"$CMABENCH" run --results "$res/plain" --set arch=arm64 --set setup=cma --set script= \
	--set append= --set alloc-count=4 --set alloc-pages=1024 --set trace=cma \
	gcma-functional > "$res/plain.log" 2>&1
plain=$(first "$res"/plain/gcma-functional-*/runs/gcma-r1)
check "the guest boots with a device-tree CMA area without guarantee" grep -qx ok "$plain/status"
check "its device tree has the reserved node, linux,cma-default, no guarantee" \
	sh -c "awk '/^\t\t(cmb_area: )?reserved \{/,/\};/' '$plain/devicetree.dts' | grep -q 'linux,cma-default;' &&
		! grep -q 'guarantee' '$plain/devicetree.dts'"
check "the kernel made it a CMA memory pool from the device tree" \
	grep -q 'OF: reserved mem: initialized node reserved, compatible id shared-dma-pool' \
	"$plain/console.log"
check "/sys/kernel/mm/cma/reserved/gcma reads 0" \
	grep -qx 0 "$plain/snapshots/before/sys-cma/reserved/gcma"
check "no cleancache backend was registered for it" \
	sh -c "! grep -q \"cleancache: registered 'reserved'\" '$plain/console.log'"
okrows=$(csv_rows "$plain/alloc.csv" 'pages == 1024 && success == 1' | wc -l)
check "four 1024-page allocations from the plain CMA area succeeded ($okrows/4)" [ "$okrows" -eq 4 ]
check "no BUG or oops on its console" no_splat "$plain/console.log"

# The integrity tests of tests/vm/gcma-stale.sh on arm64 guests.
# shellcheck source=tests/vm/gcma-stale.sh
. "$(dirname "$0")/gcma-stale.sh"

# The allocation paths on arm64: the heap of the device tree's default
# area, and our dma device bound to the area through memory-region.
export PATHS_ARCH=arm64
# shellcheck source=tests/vm/paths.sh
. "$(dirname "$0")/paths.sh"
