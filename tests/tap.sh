# TAP helpers for the shell tests: ok/notok print a numbered line,
# check runs a command and reports it under a description.
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else notok "$desc"; fi; }
