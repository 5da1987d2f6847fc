#!/bin/sh
# The guest allocation driver against a fake debugfs directory: CSV shape,
# bursts, a failing area recorded as data, bad arguments refused. Prints TAP.
: "${DRIVER:?path of cma-alloc}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/fake" "$d/burst" "$d/full"
# Writes never truncate: each fake area sees requests of one length only.
: > "$d/fake/alloc"
: > "$d/fake/free"
: > "$d/burst/alloc"
: > "$d/burst/free"
ln -s /dev/full "$d/full/alloc"
: > "$d/full/free"

"$DRIVER" --dir "$d" --area fake --count 3 --pages 1,512 --out "$d/a.csv" 2> "$d/a.err"
check "sweep exits 0" [ $? -eq 0 ]
check "CSV header" [ "$(head -n 1 "$d/a.csv")" = "seq,burst,pages,start_ns,latency_ns,success,errno,free_latency_ns,area_total,area_tenants,area_occupancy_pct,timed_out,refill_wait_ns,path,align,from_area,zeroed" ]
check "every row names its path, debugfs, at alignment 0" \
	[ "$(csv_rows "$d/a.csv" 'path == "debugfs" && align == 0' | wc -l)" -eq 6 ]
check "no refill wait asked: its cells are empty" [ "$(tail -n +2 "$d/a.csv" | cut -d, -f13 | sort -u)" = "" ]
# the fake area has no count: its state is unknown, the cells empty
check "area cells empty where the area's state cannot be read" [ "$(tail -n +2 "$d/a.csv" | cut -d, -f9-11 | sort -u)" = ",," ]
check "one row per request (6)" [ "$(tail -n +2 "$d/a.csv" | wc -l)" -eq 6 ]
check "sizes in plan order" [ "$(tail -n +2 "$d/a.csv" | cut -d, -f3 | tr '\n' ' ')" = "1 1 1 512 512 512 " ]
check "all succeeded with a latency" [ "$(awk -F, 'NR > 1 && $6 == 1 && $7 == 0 && $5 > 0' "$d/a.csv" | wc -l)" -eq 6 ]
# shellcheck disable=SC2016 # an awk program
check "start times increase" awk -F, 'NR > 2 && $4 <= prev { exit 1 } { prev = $4 }' "$d/a.csv"
check "the last write to free is the last size" [ "$(cat "$d/fake/free")" = 512 ]

"$DRIVER" --dir "$d" --area burst --count 2 --pages 4 --burst 3 --hold-ms 1 --interval-ms 5 --jitter-ms 2 --seed 9 --out "$d/b.csv"
check "bursts: 2 bursts x 3 requests" [ "$(tail -n +2 "$d/b.csv" | cut -d, -f2 | tr '\n' ' ')" = "0 0 0 1 1 1 " ]
check "a burst is freed together (12 pages)" [ "$(cat "$d/burst/free")" = 12 ]

"$DRIVER" --dir "$d" --area full --count 2 --pages 8 --out "$d/c.csv" 2> "$d/c.err"
check "a failing area is not a driver error" [ $? -eq 0 ]
check "failures recorded as success=0 errno=ENOSPC(28)" [ "$(awk -F, 'NR > 1 && $6 == 0 && $7 == 28' "$d/c.csv" | wc -l)" -eq 2 ]
check "the driver reports the failures" grep -q '2 failed' "$d/c.err"

"$DRIVER" --dir "$d" --area nosuch --pages 1 > /dev/null 2> "$d/e.err"
check "a missing area is an error naming the file" sh -c "[ $? -eq 1 ] && grep -q '$d/nosuch/alloc' '$d/e.err'"
"$DRIVER" --dir "$d" --area fake --pages 1,x > /dev/null 2>&1
check "a bad size is refused (exit 2)" [ $? -eq 2 ]
"$DRIVER" --dir "$d" --area fake --pages 1 --interval-ms 5 --jitter-ms 9 > /dev/null 2>&1
check "jitter above the interval is refused" [ $? -eq 2 ]

# --timeout-ms: a request that never returns (a FIFO without a reader blocks
# its open) is killed at its deadline, recorded as timed out, and the plan
# goes on; nothing was allocated, so nothing is freed.
mkdir -p "$d/slow" && mkfifo "$d/slow/alloc" && : > "$d/slow/free"
t0=$(date +%s%N)
"$DRIVER" --dir "$d" --area slow --count 2 --pages 4 --burst 2 --timeout-ms 200 --out "$d/t.csv" 2> "$d/t.err"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "--timeout-ms: timed-out requests are not a driver error" [ $rc -eq 0 ]
check "--timeout-ms: all 4 requests recorded, each timed out" [ "$(csv_rows "$d/t.csv" "timed_out == 1 && success == 0 && errno == 110 && latency_ns == 200000000" | wc -l)" -eq 4 ]
check "--timeout-ms: the plan went on, each request ended at its deadline (${ms} ms)" [ "$ms" -ge 800 -a "$ms" -lt 3000 ]
check "--timeout-ms: nothing freed for requests that allocated nothing" [ ! -s "$d/slow/free" ]
check "--timeout-ms: the driver counts them" grep -q '4 failed (4 timed out)' "$d/t.err"
"$DRIVER" --dir "$d" --area fake --count 3 --pages 2 --burst 2 --timeout-ms 5000 --out "$d/u.csv" 2> /dev/null
check "--timeout-ms: fast requests complete in time (timed_out=0)" [ "$(csv_rows "$d/u.csv" "timed_out == 0 && success == 1" | wc -l)" -eq 6 ]

# Rows are on disk as each burst ends: a driver killed half-way (its VM
# stopped) leaves the rows it completed.
"$DRIVER" --dir "$d" --area slow --count 20 --pages 4 --timeout-ms 100 --out "$d/p.csv" 2> /dev/null &
pp=$!
sleep 0.7
kill -KILL "$pp"
wait "$pp" 2> /dev/null
rows=$(tail -n +2 "$d/p.csv" | wc -l)
check "a killed driver kept the rows it completed ($rows)" [ "$rows" -ge 3 -a "$rows" -lt 20 ]
check "its rows are whole" [ "$(csv_rows "$d/p.csv" "timed_out == 1" | wc -l)" -eq "$rows" ]

# --loop: the sweep starts over until SIGTERM, sizes in plan order each pass.
mkdir -p "$d/loop" && : > "$d/loop/alloc" && : > "$d/loop/free"
"$DRIVER" --dir "$d" --area loop --count 1 --pages 1,2,4 --interval-ms 10 --loop \
	--out "$d/l.csv" 2> /dev/null &
lp=$!
sleep 1
kill -TERM "$lp"
wait "$lp"
check "--loop ends cleanly on SIGTERM" [ $? -eq 0 ]
rows=$(tail -n +2 "$d/l.csv" | wc -l)
check "--loop went round the sweep more than once ($rows requests)" [ "$rows" -gt 3 ]
check "--loop keeps plan order: 1 2 4 1 2 4 ..." sh -c "tail -n +2 '$d/l.csv' | cut -d, -f3 | head -n 6 | tr '\n' ' ' | grep -qx '1 2 4 1 2 4 '"

# --passes: the sweep a fixed number of times, in plan order, after --start-ms
t0=$(date +%s%N)
"$DRIVER" --dir "$d" --area fake --count 1 --pages 1,2 --passes 3 --start-ms 300 \
	--out "$d/p.csv" 2> /dev/null
check "--passes 3: exits 0" [ $? -eq 0 ]
check "--passes 3: 1 2 1 2 1 2" sh -c "tail -n +2 '$d/p.csv' | cut -d, -f3 | tr '\n' ' ' | grep -qx '1 2 1 2 1 2 '"
check "--start-ms 300: the driver took at least 300 ms" [ $(( ($(date +%s%N) - t0) / 1000000 )) -ge 300 ]
"$DRIVER" --dir "$d" --area fake --pages 1 --passes 0 > /dev/null 2>&1
check "--passes 0 is refused" [ $? -eq 2 ]

# --wait-target: an area whose state cannot be read never reaches it; each
# burst waits --wait-max-ms, says so, and the plan goes on.
"$DRIVER" --dir "$d" --area fake --count 2 --pages 2 --wait-target 90 --wait-max-ms 200 \
	--out "$d/w.csv" 2> /dev/null
check "--wait-target: the driver ran" [ $? -eq 0 ]
check "--wait-target: each burst waited its longest wait, 200-1000 ms" \
	[ "$(csv_rows "$d/w.csv" "refill_wait_ns >= 200000000 && refill_wait_ns < 1000000000 && success == 1" | wc -l)" -eq 2 ]
"$DRIVER" --dir "$d" --area fake --pages 1 --wait-target 101 > /dev/null 2>&1
check "--wait-target above 100 is refused" [ $? -eq 2 ]

# --pause-pidfile: the keeper is stopped while a burst runs, and goes on
# after it (a request that blocks until its 400 ms deadline).
sleep 30 &
kp=$!
echo "$kp" > "$d/keeper.pid"
"$DRIVER" --dir "$d" --area slow --count 1 --pages 4 --timeout-ms 400 \
	--pause-pidfile "$d/keeper.pid" --out "$d/q.csv" 2> /dev/null &
dp=$!
sleep 0.2
during=$(awk '{ print $3 }' "/proc/$kp/stat")
wait "$dp"
after=$(awk '{ print $3 }' "/proc/$kp/stat")
kill "$kp" 2> /dev/null; kill -CONT "$kp" 2> /dev/null
check "--pause-pidfile: the keeper was stopped during the burst (state ${during:-?})" [ "$during" = T ]
check "--pause-pidfile: and running again after it (state ${after:-?})" [ "$after" != T ]

# --free-lock: the free waits for the lock another driver holds.
mkdir -p "$d/locked" && : > "$d/locked/alloc" && : > "$d/locked/free"
flock "$d/free.lock" sh -c "sleep 1; : > '$d/marker'" &
hp=$!
sleep 0.3
"$DRIVER" --dir "$d" --area locked --count 1 --pages 2 --free-lock "$d/free.lock" --out "$d/k.csv" 2> /dev/null
check "--free-lock: the driver ran" [ $? -eq 0 ]
check "--free-lock: its free waited for the lock's holder" [ -e "$d/marker" ]
check "--free-lock: then freed its 2 pages" [ "$(cat "$d/locked/free")" = 2 ]
wait "$hp"

# --align: debugfs's alloc_align written before each size, the order in the CSV.
mkdir -p "$d/aligned" && : > "$d/aligned/alloc" && : > "$d/aligned/free" && : > "$d/aligned/alloc_align"
"$DRIVER" --dir "$d" --area aligned --count 1 --pages 2 --align 3 --out "$d/al.csv" 2> /dev/null
check "--align 3: the driver ran" [ $? -eq 0 ]
check "--align 3: alloc_align written ($(cat "$d/aligned/alloc_align"))" [ "$(cat "$d/aligned/alloc_align")" = 3 ]
check "--align 3: the CSV says align 3" [ "$(csv_rows "$d/al.csv" 'align == 3' | wc -l)" -eq 1 ]
mkdir -p "$d/dmaal" && : > "$d/dmaal/alloc" && : > "$d/dmaal/free" && : > "$d/dmaal/alloc_align"
"$DRIVER" --dir "$d" --area dmaal --count 1 --pages 1,512,4096 --align dma --out "$d/ad.csv" 2> /dev/null
check "--align dma: orders as dma_alloc_contiguous() (min(order, 8): 0 9->8 12->8)" \
	[ "$(csv_rows "$d/ad.csv" 1 align | tr '\n' ' ')" = "0 8 8 " ]
mkdir -p "$d/noknob" && : > "$d/noknob/alloc" && : > "$d/noknob/free"
"$DRIVER" --dir "$d" --area noknob --count 1 --pages 2 --align 1 --out "$d/nk.csv" 2> "$d/nk.err"
check "--align on a kernel without alloc_align: an error that says so" \
	sh -c "[ $? -ne 0 ] && grep -q 'without our debugfs alloc_align' '$d/nk.err'"
"$DRIVER" --dir "$d" --area fake --count 1 --pages 2 --path heap --align 2 2> /dev/null
check "--align with a device path is refused (exit 2)" [ $? -eq 2 ]
"$DRIVER" --dir "$d" --area fake --count 1 --pages 2 --align eight 2> /dev/null
check "--align eight is refused (exit 2)" [ $? -eq 2 ]
"$DRIVER" --dir "$d" --area fake --count 1 --pages 2 --path mmap 2> /dev/null
check "--path mmap is refused (exit 2)" [ $? -eq 2 ]
