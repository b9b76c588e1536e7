#!/usr/bin/env bash
# tools/cluster/sweep.sbatch through a real Slurm: a single-node cluster (munged, slurmctld,
# slurmd from Debian's slurm-wlm and munge) started here in a temporary directory, with its own
# munge key, config, state and logs, runs the script as a job; the script plans, submits a
# 4-task array and a merge after it; the merged outputs must be the bytes one process writes.
# Slurm is always shut down at the end, pass or fail. If it cannot start, the test says why in
# one line and fails.
#
# Isolation: its own munge key and socket, config, state, spool and logs under a temporary
# directory, its own ports (free unprivileged ones, chosen at start) on 127.0.0.1: slurmd and the
# job steps bind 127.0.0.1 only (CommunicationParameters=NoInAddrAny); slurmctld 22.05 has no
# setting to bind one address and listens on the port on every interface. (A network namespace
# of its own would hide it completely, but Slurm 22.05 does not resolve its addresses in one
# that has only a loopback.)
#
# Usage: SweepSlurmTest.sh SNOWCAP OUT_DIR
set -u
snowcap="$(realpath "$1")"
out="$2"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"

fail() {
    echo "FAIL: $*"
    exit 1
}
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$tool" >/dev/null ||
        fail "Slurm cannot start: $tool is not installed (tools/lib.sh installs slurm-wlm and munge)"
done

# Two free unprivileged ports on 127.0.0.1, so that runs on one machine never collide.
read -r -a ports <<<"$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')"
[ ${#ports[@]} -eq 2 ] || fail "Slurm cannot start: no free ports on 127.0.0.1"

rm -rf "$out"
mkdir -p "$out"
cd "$out" || exit 1
out="$(pwd)"
# The munge socket's path must fit a sockaddr_un (108 bytes): a short directory in /tmp.
tmp="$(mktemp -d /tmp/snowcap-slurm.XXXXXX)"
chmod 755 "$tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
pids=()
cleanup() {
    export SLURM_CONF="$tmp/slurm.conf"
    if [ ${#pids[@]} -ge 2 ] && kill -0 "${pids[1]}" 2>/dev/null; then # slurmctld is up
        scancel --quiet --full --user="$(id -un)" 2>/dev/null
        scontrol shutdown >/dev/null 2>&1
    fi
    local pid tick alive
    # slurmctld and slurmd end on `scontrol shutdown`; after them (or 3 s) every daemon left,
    # munged included, gets SIGTERM, and SIGKILL 2 s later.
    for tick in $(seq 1 50); do
        alive=0
        for pid in "${pids[@]:1}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 0.1
        [ "$tick" -eq 30 ] && break
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for tick in $(seq 1 20); do
        alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    wait 2>/dev/null
    cp -r "$tmp/log" "$out/slurm-logs" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP # the EXIT trap runs on these too

# The one-process sweep to compare with (before Slurm takes the cores).
request=(--scenario press_release --set view.width=128 --set view.height=72
    --vary sim.a.decay=0.8,0.95,0.99,0.999 --vary snow.depth_cm=30 --at 0.5,1.5 --tile 64x48)
"$snowcap" --quiet sweep --no-progress "${request[@]}" --out one || fail "the one-process sweep failed"

dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
    --seed-file="$tmp/munge/seed" 2>>"$tmp/log/munged.log" &
pids+=($!)
for _ in $(seq 1 50); do [ -S "$tmp/munge/socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge/socket" ] ||
    fail "Slurm cannot start: munged made no socket ($(tail -n 1 "$tmp/log/munged.log"))"

user="$(id -un)"
cat >"$tmp/slurm.conf" <<EOF
ClusterName=snowcaptest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
CommunicationParameters=NoInAddrAny
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MailProg=/bin/true
SlurmdParameters=config_overrides
NodeName=snowcap NodeHostname=$(hostname) NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -D -i 2>>"$tmp/log/slurmctld.log" &
pids+=($!)
slurmd -D -N snowcap 2>>"$tmp/log/slurmd.log" &
pids+=($!)
last_lines() {
    echo "slurmctld: $(tail -n 1 "$tmp/log/slurmctld.log" 2>/dev/null);" \
        "slurmd: $(tail -n 1 "$tmp/log/slurmd.log" 2>/dev/null)"
}
state=""
for _ in $(seq 1 100); do
    kill -0 "${pids[1]}" 2>/dev/null || fail "Slurm cannot start: slurmctld exited ($(last_lines))"
    kill -0 "${pids[2]}" 2>/dev/null || fail "Slurm cannot start: slurmd exited ($(last_lines))"
    state="$(timeout 5 sinfo -h -n snowcap -o %T 2>/dev/null)"
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || fail "Slurm cannot start: the node is '${state:-unreachable}' ($(last_lines))"
echo "slurm: node up ($(sinfo -h -o '%c CPUs, partition %P'))"

# The plan itself is a job too: it submits the array and the merge.
export SNOWCAP="$snowcap"
plan_job=$(sbatch --parsable --output="$out/plan-job.out" \
    "$source_dir/tools/cluster/sweep.sbatch" "$out/sweep" 4 "${request[@]}") ||
    fail "sbatch refused tools/cluster/sweep.sbatch"
queue_empty() {
    local queue
    queue="$(timeout 10 squeue -h -o %i)" || return 1
    [ -z "$queue" ]
}
deadline=$((SECONDS + 240)) # a bound for a busy machine, not the expected time
until queue_empty || [ $SECONDS -ge $deadline ]; do sleep 0.2; done
queue_empty && [ -f "$out/sweep/slurm_jobs" ] || {
    squeue
    cat "$out/plan-job.out" "$out"/sweep/logs/*.out 2>/dev/null
    fail "the jobs did not finish in 240 s"
}
source "$out/sweep/slurm_jobs"
cat "$out/plan-job.out"
records="$(for job in "$plan_job" "$array" "$merge"; do scontrol -o show job "$job"; done)"
# One line per job and array task: "slurm: JobId=4 JobName=snowcap-shard ArrayTaskId=1 ...".
awk '{ line = "slurm:"; for (i = 1; i <= NF; ++i)
           if ($i ~ /^(JobId|JobName|ArrayTaskId|JobState|RunTime)=/) line = line " " $i
       print line }' <<<"$records"
states="$(grep -o 'JobState=[A-Z_]*' <<<"$records" | sort | uniq -c | xargs)"
[ "$states" = "6 JobState=COMPLETED" ] ||
    fail "jobs not all COMPLETED: $states (logs in $out/sweep/logs)"
[ "$(ls "$out/sweep/shards")" = "$(seq 1 4)" ] || fail "shards: $(ls "$out/sweep/shards")"
grep -q "shard 4/4" "$out/sweep/logs/shard-4.out" ||
    fail "task 4 did not run shard 4/4 from the array's variables"

source "$source_dir/tests/app/sweep_compare.sh"
same_outputs one "$out/sweep"
echo "ok: Slurm ran the plan, 4 array tasks and the merge; the sheet is one process's, byte for byte"
