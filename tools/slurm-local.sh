#!/bin/sh
# tools/slurm-local.sh - a one-node Slurm cluster on this machine, for
# `wakesim sweep --emit slurm` (docs/sweeps.md) and its test: munged,
# slurmctld and slurmd on localhost with a minimal configuration (every
# CPU of this machine in one partition, no accounting, no cgroups).
#
# Usage: tools/slurm-local.sh [start|stop|status]   (default start; root)
# Needs Debian's slurm-wlm and munge (tools/install-deps.sh --slurm).
# The configuration goes to /etc/slurm/slurm.conf unless one is there
# already (then it is used as it is); state and logs to /var/spool and
# /var/log/slurm-local. Starting twice is harmless.
set -eu
cmd=${1:-start}
conf=/etc/slurm/slurm.conf
logs=/var/log/slurm-local

die() { echo "slurm-local: $*" >&2; exit 1; }

case $cmd in
start|stop|status) ;;
*) echo "slurm-local: unknown command \"$cmd\" (start, stop or status)" >&2; exit 2 ;;
esac

[ "$(id -u)" -eq 0 ] || die "run as root (it starts munged, slurmctld and slurmd)"
for b in munged slurmctld slurmd sinfo; do
	command -v "$b" >/dev/null || die "$b not found: apt-get install slurm-wlm munge"
done

case $cmd in
stop)
	pkill -x slurmd || true
	pkill -x slurmctld || true
	pkill -x munged || true
	exit 0 ;;
status)
	sinfo -h -o '%N %T %c' ;
	exit $? ;;
esac

host=$(hostname -s)
cpus=$(nproc)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$logs" /run/munge
if [ ! -e "$conf" ]; then
	# Root runs the daemons: a local test cluster, not a shared one.
	cat >"$conf" <<EOF
ClusterName=wakesim-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
fi
[ -s /etc/munge/munge.key ] || die "/etc/munge/munge.key missing (the munge package makes it)"
chown munge:munge /run/munge
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
# The node registers within seconds; wait until it answers idle.
for i in $(seq 1 30); do
	if sinfo -h -o '%T' 2>/dev/null | grep -q idle; then
		echo "slurm-local: node $host ($cpus CPUs) idle in partition local"
		exit 0
	fi
	sleep 1
done
die "the node did not come up idle in 30 s: see $logs/slurmctld.log and $logs/slurmd.log"
