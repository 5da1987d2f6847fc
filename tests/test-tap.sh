#!/bin/sh
# Unit test of tests/tap.sh's helpers for the VM tests: csv_rows (columns
# by name) and vm_test (the temporary results directory). Prints TAP.
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
