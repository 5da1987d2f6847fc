#!/bin/sh
# Unit test of tests/tap.sh's helpers for the VM tests: csv_rows (columns
# by name), vm_test (the temporary results directory) and run_said. Prints TAP.
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

printf 'seq,pages,latency_ns,success\n0,1024,500,1\n1,1024,700,0\n2,16,100,1\n' > "$t/a.csv"
check "csv_rows picks rows by named columns" \
	[ "$(csv_rows "$t/a.csv" 'pages == 1024 && success == 1' | wc -l)" -eq 1 ]
check "csv_rows prints one column of the rows" \
	[ "$(csv_rows "$t/a.csv" 'success == 1' latency_ns | tr '\n' ' ')" = "500 100 " ]
check "csv_rows prints an expression of columns" \
	[ "$(csv_rows "$t/a.csv" 'seq == 1' 'pages "," latency_ns / 100')" = "1024,7" ]
check "csv_rows skips the header" [ "$(csv_rows "$t/a.csv" 1 | wc -l)" -eq 3 ]
check "csv_rows prints nothing for a missing file" [ -z "$(csv_rows "$t/none.csv" 1)" ]
refuses() { ! sh -c "unset CMABENCH; . '$here/tap.sh'; vm_test; echo ran" 2> /dev/null | grep -q ran; }
check "vm_test stops a test run without CMABENCH" refuses
check "vm_test makes a results directory and removes it on exit" \
	sh -c "CMABENCH=x; . '$here/tap.sh'; vm_test; echo \$res > '$t/res'; [ -d \"\$res\" ]"
check "(and it is gone)" sh -c "[ -s '$t/res' ] && [ ! -d \"\$(cat '$t/res')\" ]"
check "vm_test keeps a results directory a sourcing test made" \
	sh -c "CMABENCH=x; res='$t/keep'; . '$here/tap.sh'; vm_test; [ \"\$res\" = '$t/keep' ]"
mkdir -p "$t/ok" "$t/hang" "$t/none"
echo ok > "$t/ok/status"
echo hang > "$t/hang/status"
printf '{\n  "status":"hang",\n  "silence":"no progress for 60 s (last: x); jiffies +1650 in 6.7 s (timers running)",\n}\n' \
	> "$t/hang/metadata.json"
check "run_said says nothing of a run that ended ok" [ -z "$(run_said "$t/ok")" ]
check "run_said gives a hung run's status and the watchdog's summary" \
	[ "$(run_said "$t/hang")" = "; the run: hang: no progress for 60 s (last: x); jiffies +1650 in 6.7 s (timers running)" ]
check "run_said names a run with no status" [ "$(run_said "$t/none")" = "; the run: no status" ]
