#!/bin/sh
# The guest's app-switching user (app-switch) on the host: files laid out,
# one CSV row per launch, cold launches of apps not alive and warm ones of
# apps alive, at most --keep apps alive, no app left behind, bad arguments
# refused. Prints TAP.
: "${APP_SWITCH:?path of app-switch}"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

"$APP_SWITCH" prepare --dir "$d/apps" --apps 5 --code-kb 256 --assets-kb 128
check "prepare exits 0" [ $? -eq 0 ]
check "prepare writes each app's code and assets" [ "$(count "$d"/apps/*)" -eq 10 ]
check "code files have their size" [ "$(wc -c < "$d/apps/app004.code")" -eq 262144 ]

"$APP_SWITCH" run --dir "$d/apps" --apps 5 --launches 40 --keep 2 --heap-mb 2 \
	--dwell-ms 1 --seed 7 --out "$d/l.csv" --times "$d/t.csv" --name apps
check "run exits 0" [ $? -eq 0 ]
check "CSV header" [ "$(head -n 1 "$d/l.csv")" = "seq,app,kind,launch_ns,majflt,alive" ]
check "one row per launch" [ "$(csv_rows "$d/l.csv" 1 | wc -l)" -eq 40 ]
# shellcheck disable=SC2016 # an awk column, not a shell variable
check "the first launch is cold" [ "$(csv_rows "$d/l.csv" 'seq == 0' '$3')" = cold ]
check "some launches are warm" [ "$(csv_rows "$d/l.csv" 'kind == "warm"' | wc -l)" -gt 0 ]
check "apps killed beyond --keep 2 launch cold again" \
	[ "$(csv_rows "$d/l.csv" 'kind == "cold"' | wc -l)" -gt 5 ]
check "never more than --keep apps alive" [ "$(csv_rows "$d/l.csv" 'alive > 2' | wc -l)" -eq 0 ]
check "every launch took time" [ "$(csv_rows "$d/l.csv" 'launch_ns <= 0' | wc -l)" -eq 0 ]
# the popular app (0) is launched more often than the least popular (4)
n0=$(csv_rows "$d/l.csv" 'app == 0' | wc -l)
n4=$(csv_rows "$d/l.csv" 'app == 4' | wc -l)
check "Zipf order: app 0 launched more often than app 4 ($n0 against $n4)" [ "$n0" -gt "$n4" ]
check "--times: one row for the run" [ "$(grep -c '^apps,' "$d/t.csv")" -eq 1 ]
check "no app left alive" [ "$(pgrep -f "app-switch run --dir $d" | wc -l)" -eq 0 ]

"$APP_SWITCH" run --dir "$d/apps" --apps 0 > /dev/null 2>&1
check "--apps 0 is refused" [ $? -eq 2 ]
"$APP_SWITCH" run --apps 3 > /dev/null 2>&1
check "no --dir is refused" [ $? -eq 2 ]
"$APP_SWITCH" run --dir "$d/none" --apps 2 --launches 2 --out "$d/x.csv" 2> "$d/x.err"
rc=$?
check "missing files: the run fails (rc $rc)" [ "$rc" -ne 0 ]
check "missing files: it says which app died" grep -q 'died launching' "$d/x.err"
