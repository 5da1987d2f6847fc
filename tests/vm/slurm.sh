#!/bin/sh
# VM test of 'cmabench run --slurm' on a single-node Slurm cluster started
# here (tests/slurm-cluster.sh): the smoke scenario through one array job
# gives results laid out as a local run's; a task killed mid-run shows up
# as a failed run with its Slurm log while the other run is kept; no QEMU
# and no daemon is left. Prints TAP.
: "${CMABENCH:?set by make check}"
: "${TESTS_BUILDDIR:?set by make check}"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"

if ! command -v sbatch >/dev/null 2>&1 || [ ! -x /usr/sbin/slurmctld ] || [ ! -x /usr/sbin/munged ]; then
	echo "ok 1 # SKIP slurm-wlm or munge not installed (scripts/install-deps installs them)"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "ok 1 # SKIP the test cluster's daemons run as root"
	exit 0
fi

tmp=$(mktemp -d)
res="$tmp/results"
cleanup() {
	"$here/../slurm-cluster.sh" stop "$tmp/cluster" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
if ! conf=$("$here/../slurm-cluster.sh" start "$tmp/cluster" 2>"$tmp/cluster.err"); then
	echo "not ok 1 - the single-node Slurm cluster started"
	sed 's/^/# /' "$tmp/cluster.err"
	exit 0
fi
eval "$conf"
check "the single-node Slurm cluster is up" sh -c 'sinfo -h -o %t | grep -q idle'

quick="--set fio-runtime=2s --set alloc-count=2"
# shellcheck disable=SC2086 # the options, split into words on purpose
"$CMABENCH" run --slurm --results "$res/slurm" $quick smoke > "$tmp/slurm.out" 2>&1
rc=$?
check "run --slurm smoke succeeded (exit $rc)" [ "$rc" -eq 0 ]
dir=$(first "$res"/slurm/smoke-*)
check "run --slurm showed the array's progress" grep -q '^\[slurm\] job [0-9]*: 2/2 ended' "$tmp/slurm.out"
for r in vanilla-r1 gcma-kernel-r1; do
	m="$dir/runs/$r/metadata.json"
	check "$r ended ok" grep -qx ok "$dir/runs/$r/status"
	check "$r: its Slurm task is named" grep -qE '"slurm_job": ?"[0-9]+_[01]"' "$m"
	check "$r: its Slurm log is kept" grep -q 'run .*smoke/'"$r" "$dir/runs/$r/slurm.log"
	check "$r: VMs beside it recorded" grep -qE '"vms_beside": ?[0-9]' "$m"
done
check "the report of a Slurm run is written" [ -s "$dir/report.md" ]
check "no staging directory is left" sh -c "! ls -d '$res'/slurm/.slurm-* '$res'/slurm/.tmp-* 2>/dev/null"

# The same run made locally has the same files (less Slurm's own).
# shellcheck disable=SC2086 # the options, split into words on purpose
"$CMABENCH" run --results "$res/local" --only vanilla $quick smoke > "$tmp/local.out" 2>&1
rc=$?
check "the same run made locally succeeded (exit $rc)" [ "$rc" -eq 0 ]
ldir=$(first "$res"/local/smoke-*)
layout() { (cd "$1" && find . -type f ! -name slurm.log ! -name slurm.json \
	! -path './data/plot-*' ! -path './runs/gcma-kernel-r1/*' | sort); }
layout "$dir" > "$tmp/slurm.files"
layout "$ldir" > "$tmp/local.files"
check "a Slurm run's results are laid out as a local run's" cmp -s "$tmp/slurm.files" "$tmp/local.files"
if ! cmp -s "$tmp/slurm.files" "$tmp/local.files"; then
	echo "# diff local slurm:"
	diff "$tmp/local.files" "$tmp/slurm.files" | sed 's/^/# /' | head -n 20
	# what either run said of its runs, report and figures
	for o in local slurm; do
		grep -iE 'fail|error|figure|gnuplot|results:' "$tmp/$o.out" | tail -n 8 | sed "s/^/# $o: /"
	done
fi

# A task killed outright (SIGKILL: it cannot record anything) is a failed
# run with its log; the other run is kept.
# shellcheck disable=SC2086 # the options, split into words on purpose
"$CMABENCH" run --slurm --no-wait --results "$res/kill" $quick smoke > "$tmp/kill.out" 2>&1
stage=$(sed -n "s/.*'cmabench wait \(.*\)' completes.*/\1/p" "$tmp/kill.out")
job=$(sed -n 's/^\[slurm\] job \([0-9]*\): .*/\1/p' "$tmp/kill.out" | head -n 1)
has_stage() { [ -n "$job" ] && [ -d "$stage" ]; }
check "run --slurm --no-wait returned with a job ($job) and a stage" has_stage
i=0
until squeue -h -r -j "$job" -o "%K %T" | grep -q '^1 RUNNING' || [ $i -ge 60 ]; do
	sleep 1
	i=$((i + 1))
done
sleep 3
scancel --signal=KILL --full "${job}_1"
"$CMABENCH" wait "$stage" > "$tmp/wait.out" 2>&1
rc=$?
kdir=$(first "$res"/kill/smoke-*)
completed() { [ "$rc" -eq 1 ] && [ -s "$kdir/report.md" ]; }
check "cmabench wait completed the results and reported a failure (exit $rc)" completed
check "the killed task's run failed" sh -c "! grep -qx ok '$kdir/runs/gcma-kernel-r1/status'"
check "the killed task's run keeps its Slurm log" [ -s "$kdir/runs/gcma-kernel-r1/slurm.log" ]
check "the other run is kept" grep -qx ok "$kdir/runs/vanilla-r1/status"
check "the failed run is named at the end" grep -q 'gcma-kernel-r1: ' "$tmp/wait.out"
no_qemu() { ! pgrep -f "qemu-system-x86_64.*$tmp" > /dev/null; }
check "no QEMU left running" no_qemu
