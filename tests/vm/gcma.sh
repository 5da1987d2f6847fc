#!/bin/sh
# VM test of the GCMA series: runs the gcma-functional scenario on the gcma
# kernel and judges what came back: KUnit results from the console,
# cleancache counters, full-area allocations, fio verification. Then boots
# with a malformed gcma= and checks the kernel refuses it and goes on.
# Prints TAP; the numbers of interest go out as "#" comments.
# GCMA_ARCH=arm64 runs the same checks on an arm64 guest, whose GCMA area
# comes from the device tree (tests/vm/gcma-arm64.sh); GCMA_KERNEL=gcma-debug
# on the debug kernel, with GCMA_MEMORY, GCMA_TIMEOUT and GCMA_APPEND (added to the
# scenario's command line) for what it needs, and GCMA_BAD_BOOT=no
# without the malformed gcma= boot (tests/vm/gcma-debug.sh).
: "${TESTS_BUILDDIR:?set by make check}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
ARCH=${GCMA_ARCH:-x86_64}
KERNEL=${GCMA_KERNEL:-gcma}
set -- --set "arch=$ARCH" --set "kernel=$KERNEL"
[ -n "${GCMA_MEMORY:-}" ] && set -- "$@" --set "memory=$GCMA_MEMORY"
[ -n "${GCMA_TIMEOUT:-}" ] && set -- "$@" --set "timeout=$GCMA_TIMEOUT"
[ -n "${GCMA_APPEND:-}" ] && set -- "$@" --set "append=cma=64M kunit.enable=1 $GCMA_APPEND"

vm_test
"$CMABENCH" run --results "$res" "$@" gcma-functional
rc=$?
run=$(first "$res"/gcma-functional-*/runs/gcma-r1)
con="$run/console.log"
check "cmabench run gcma-functional succeeded (exit $rc, status $(val "$run/status"))" [ "$rc" -eq 0 ]

# KUnit: one TAP line per test case of the cleancache suite (indented KTAP).
sed -n 's/^\[[^]]*\] //p' "$con" 2>/dev/null | grep -E '^ +(not )?ok [0-9]+ ' > "$res/kunit" || true
if [ ! -s "$res/kunit" ]; then
	notok "KUnit cleancache cases reported on the console"
fi
while read -r word rest; do
	if [ "$word" = not ]; then
		notok "kunit: ${rest#ok }"
	else
		ok "kunit: $rest"
	fi
done < "$res/kunit"
check "KUnit suite cleancache passed" grep -qE '\] *ok [0-9]+ cleancache' "$con"
check "KUnit suite gcma passed" grep -qE '\] *ok [0-9]+ gcma' "$con"

s0=$(val "$run/cleancache-start/stores"); s1=$(val "$run/cleancache-after-reads/stores")
h0=$(val "$run/cleancache-after-reads/hits"); h1=$(val "$run/cleancache-after-rereads/hits")
echo "# cleancache: stores +$((s1 - s0)) over two reads of a file larger than RAM, hits +$((h1 - h0)) over 10 s of random re-reads"
check "reclaim stored pages in cleancache (stores $s0 -> $s1)" [ "$s1" -gt "$s0" ]
check "re-reads hit cleancache (hits $h0 -> $h1)" [ "$h1" -gt "$h0" ]

g=$(csv_rows "$run/alloc-gcma.csv" 'success == 1' | wc -l)
check "ten full-area gcma allocations succeeded with the cache hot ($g/10)" [ "$g" -eq 10 ]
c=$(csv_rows "$run/alloc-cma.csv" 'success == 1' | wc -l)
echo "# full-area cma allocations succeeded: $c/10"
for a in gcma cma; do
	for ok in 1 0; do
		csv_rows "$run/alloc-$a.csv" "success == $ok" latency_ns | sort -n |
			awk -v a=$a -v ok=$ok '{ v[NR] = $1 } END { if (NR) printf "# %s: %d %s full 64 MiB allocations under re-read load, median %.3f ms\n", a, NR, ok ? "successful" : "failed", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e6 }'
	done
done
over=$(csv_rows "$run/alloc-gcma-over.csv" 1 'success "," errno' | head -n 1)
check "one page more than the gcma area fails cleanly with an errno (success,errno: $over)" \
	sh -c "echo '$over' | grep -qE '^0,[1-9][0-9]*$'"
splats "$con"
check "no BUG, oops, warning or stall on the console" no_splat "$con"
check "fio crc32c verification found no stale data" "$TESTS_BUILDDIR/check-fio-json" "$run/fio-verify.json"

# Mutations of a file whose pages sit in cleancache never read back old bytes.
# (Besides programs on the root disk, that file is the only one read, so
# cleancache holds mostly its pages.)
for m in overwrite truncate delete; do
	line=$(grep "^$m " "$run/mutate.txt" 2>/dev/null)
	echo "# $line"
	check "after $m, the file reads back its new bytes only (fio pattern check)" \
		sh -c "echo '$line' | grep -q ' rc=0 '"
done
# A direct write drops the cached copy of its range only (the first series
# dropped the whole file's), and its bytes read back.
dio=$(cat "$run/dio.txt" 2>/dev/null)
echo "# O_DIRECT 4 KiB write: $dio"
d0=$(echo "$dio" | sed -n 's/.*before=\([0-9]*\).*/\1/p')
d1=$(echo "$dio" | sed -n 's/.*after=\([0-9]*\).*/\1/p')
check "a 4 KiB O_DIRECT write leaves the file's other pages in cleancache (cached_pages ${d0:-?} -> ${d1:-?})" \
	sh -c "[ ${d0:-0} -gt 1000 ] && [ $((${d1:-0} * 2)) -gt ${d0:-0} ]"
check "the O_DIRECT-written block reads back its new bytes" \
	sh -c "echo '$dio' | grep -q ' rc=0 readback=0'"
held=$(val "$run/cleancache-mutate-start/cached_pages")
check "cleancache held over 1000 pages of the file when it was mutated ($held)" [ "$held" -gt 1000 ]

# An inode pruned while its file lives on keeps its cleancache copies.
h0=$(val "$run/cleancache-evict-pruned/hits"); h1=$(val "$run/cleancache-evict-reread/hits")
i0=$(val "$run/cleancache-evict-dropped/invalidates"); i1=$(val "$run/cleancache-evict-pruned/invalidates")
c0=$(val "$run/cleancache-evict-dropped/cached_pages")
echo "# drop_caches=2: cached_pages before $c0, invalidates +$((i1 - i0)); a re-read of the file then: hits +$((h1 - h0))"
check "a file's pages in cleancache survive drop_caches=2 pruning its inode (re-read hits +$((h1 - h0)) of $c0 cached, invalidated +$((i1 - i0)))" \
	sh -c "[ $c0 -ge 4096 ] && [ $((h1 - h0)) -ge 2048 ] && [ $((i1 - i0)) -lt 1024 ]"
# The umount of a file system with cached files: no lock hold over 256 entries.
c0=$(val "$run/cleancache-umount-before/cached_pages"); c1=$(val "$run/cleancache-umount-after/cached_pages")
mh=$(cat "$run/cleancache-umount-after/max_hold_entries" 2>/dev/null)
echo "# umount: cached_pages $c0 -> $c1, max_hold_entries ${mh:-missing} ($(cat "$run/umount.txt" 2>/dev/null))"
check "the umount dropped the file system's cached pages ($c0 -> $c1, at least 4096 gone)" \
	[ $((c0 - c1)) -ge 4096 ]
check "no cleancache lock hold handled more than 256 entries, umount included (max_hold_entries ${mh:-missing})" \
	sh -c "[ -n '$mh' ] && [ '$mh' -gt 0 ] && [ '$mh' -le 256 ]"
# Stale entries of pages taken back never outnumber the pool (1 s samples)
pool=$(val "$run/cleancache-start/pool_pages")
smax=$(awk -F, '$2 == "cleancache" && $3 == "stale_slots" && $4 > m { m = $4 } END { print m + 0 }' "$run/samples.csv" 2>/dev/null)
send=$(val "$run/cleancache-mutate-start/stale_slots")
echo "# stale_slots: at most $smax in the 1 s samples, $send after the full-area allocations; pool $pool pages"
check "stale entries were left by pages taken back, and never more than the pool's pages (max $smax, pool $pool)" \
	sh -c "[ -r '$run/cleancache-start/stale_slots' ] && [ $smax -gt 0 ] && [ $smax -le $pool ]"
# The upstream series' names read the same counters as debugfs.
sys=$run/sysfs-cleancache.txt
for c in stored skipped restored missed reclaimed recalled invalidated cached; do
	line=$(awk -v k=$c '$1 == k' "$sys" 2>/dev/null)
	check "/sys/kernel/mm/cleancache/$c reads as debugfs (${line:-missing})" \
		sh -c "echo '$line' | awk 'NF == 4 && \$2 == \$4 { ok = 1 } END { exit !ok }'"
done
psize=$(awk '$1 == "pool" { s += $3 } END { print s + 0 }' "$sys" 2>/dev/null)
ppool=$(awk '$1 == "pool_pages" { print $2 }' "$sys" 2>/dev/null)
check "the pools' sizes in sysfs add up to debugfs's pool_pages ($psize = ${ppool:-missing})" [ "$psize" = "${ppool:-x}" ]
# The KUnit suites keep to their own pool: no real pool flushed at boot,
# and the suite's pool gone once it ended.
check "the KUnit suites flushed no real pool (no 'cleancache: flushed' before init)" \
	sh -c "! sed '/cmabench-init: start/q' '$con' | grep -q 'cleancache: flushed'"
check "the KUnit suite's pool is gone after it ($(awk '$1 == "pool" { printf "%s ", $2 }' "$sys" 2>/dev/null))" \
	sh -c "[ -s '$sys' ] && ! awk '\$1 == \"pool\" && \$2 == \"kunit\" { f = 1 } END { exit !f }' '$sys'"

# A malformed gcma= is refused with a message; the boot goes on, no area.
# (GCMA_BAD_BOOT=no skips it: the debug kernel parses gcma= as this one.)
if [ "${GCMA_BAD_BOOT:-yes}" = yes ]; then
	"$CMABENCH" run --results "$res/bad" "$@" --set setup=none --set script= \
		--set 'append=gcma=64Q cma=64M' gcma-functional > "$res/bad.log" 2>&1
	bad=$(first "$res"/bad/gcma-functional-*/runs/gcma-r1)
	check "the guest still boots with gcma=64Q" grep -qx ok "$bad/status"
	check "the kernel says it refused gcma=64Q" grep -qiE 'gcma.*(invalid|malformed|refus|ignor)' "$bad/console.log"
	check "no gcma area exists after gcma=64Q" [ ! -e "$bad/snapshots/before/sys-cma/gcma" ]
	check "the cma= area beside it still exists" [ -e "$bad/snapshots/before/sys-cma/reserved" ]
fi
