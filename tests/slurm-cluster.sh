#!/bin/sh
# A single-node Slurm cluster on this host, all of it under DIR: its own
# munge key and socket, slurm.conf, state, logs and ports, so the host's
# /etc and any cluster it runs stay untouched.
#   slurm-cluster.sh start DIR   prints "export SLURM_CONF=DIR/slurm.conf"
#   slurm-cluster.sh stop DIR    stops the daemons by their own pids
# Needs slurm-wlm and munge (scripts/install-deps) and root (the daemons
# run jobs as root here).
set -eu

cmd=${1:?start|stop}
dir=${2:?DIR}

stop() {
	for p in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/pid"; do
		if [ -s "$p" ]; then kill "$(cat "$p")" 2>/dev/null || :; fi
	done
	# the daemons remove their pid files when they have stopped
	i=0
	while [ $i -lt 50 ] && { [ -e "$dir/slurmd.pid" ] || [ -e "$dir/slurmctld.pid" ]; }; do
		sleep 0.1
		i=$((i + 1))
	done
}

if [ "$cmd" = stop ]; then
	stop
	exit 0
fi
[ "$cmd" = start ] || { echo "slurm-cluster.sh: start or stop, not '$cmd'" >&2; exit 2; }

for t in munged slurmctld slurmd sbatch; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
		{ echo "slurm-cluster.sh: $t not found (scripts/install-deps installs slurm-wlm and munge)" >&2; exit 3; }
done
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
dir=$(cd "$dir" && pwd)
chmod 711 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=128 count=1 2>/dev/null
chmod 600 "$dir/munge/munge.key"
/usr/sbin/munged --force -S "$dir/munge/sock" --key-file="$dir/munge/munge.key" \
	--log-file="$dir/munge/log" --pid-file="$dir/munge/pid" --seed-file="$dir/munge/seed"

host=$(hostname -s)
# ports above the usual 6817/6818, picked from the pid so two clusters differ
port=$((20000 + ($$ % 20000) * 2))
cat > "$dir/slurm.conf" <<EOF
ClusterName=cmabench-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
KillWait=10
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
/usr/sbin/slurmctld
/usr/sbin/slurmd
# the node reports idle once slurmd has registered
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		echo "slurm-cluster.sh: the node did not come up in 30 s (logs in $dir/log)" >&2
		stop
		exit 1
	fi
	sleep 0.5
done
echo "export SLURM_CONF=$dir/slurm.conf"
