#!/usr/bin/env bash
# Runs a 3-shard `abrsim sweep` as a Slurm job array on a private single-node cluster and checks that the
# merged shards are byte-identical to a single-machine sweep.
#
# Installs Debian's slurm-wlm and munge when missing (apt-get), starts munged, slurmctld and slurmd in the
# background from a scratch folder (no systemd, no cgroups; recipe: ../shared/docs/slurm-local.md), submits
# docs/cluster/slurm-sweep.sbatch as an array, waits (time-limited), merges, compares, and stops every daemon
# it started by its PID on every exit path. Needs root (the daemons run as root); re-runs itself with
# `sudo -n` when that works. Environment: ABRSIM (binary; default .build/debug/abrsim, built when missing),
# SLURM_LOCAL_TIMEOUT (seconds to wait for the array, default 300), SLURM_LOCAL_KEEP=1 (keep the scratch folder).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARDS=3
TIMEOUT=${SLURM_LOCAL_TIMEOUT:-300}
log() { echo "slurm-local: $*" >&2; }
fail() {
    log "FAILED: $*"
    exit 1
}

if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then exec sudo -n -E bash "$0" "$@"; fi
    fail "must run as root (the private cluster's daemons run as root) and sudo -n is not available"
fi

# --- Packages -----------------------------------------------------------------------------------------------
missing=()
for package in slurm-wlm munge; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    apt-get update -qq || fail "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || fail "apt-get install ${missing[*]} failed"
fi
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
    command -v "$tool" >/dev/null || fail "$tool not found after installing slurm-wlm and munge"
done

# --- The binary -----------------------------------------------------------------------------------------------
ABRSIM=${ABRSIM:-$ROOT/.build/debug/abrsim}
if [ ! -x "$ABRSIM" ]; then
    log "building abrsim"
    (cd "$ROOT" && swift build --product abrsim >/dev/null) || fail "swift build failed"
fi
ABRSIM=$(cd "$(dirname "$ABRSIM")" && pwd)/$(basename "$ABRSIM")

# --- Scratch folder and clean-up on every exit path ---------------------------------------------------------
DIR=$(mktemp -d /tmp/abrsim-slurm.XXXXXX)
chmod 755 "$DIR"
JOBID=""
STARTED=() # "name:pid", in start order
exec 3>&2 # the clean-up reports here even when a signal lands inside a redirected command
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    exec 1>&3 2>&3
    if [ -n "$JOBID" ] && [ ${#STARTED[@]} -eq 3 ]; then
        scancel "$JOBID" 2>/dev/null || true
    fi
    local index entry name pid
    for ((index = ${#STARTED[@]} - 1; index >= 0; index--)); do
        entry=${STARTED[$index]}
        name=${entry%%:*}
        pid=${entry##*:}
        kill -0 "$pid" 2>/dev/null || continue
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then
            log "$name ($pid) ignored SIGTERM; sending SIGKILL"
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
    if [ "$status" -ne 0 ]; then
        for file in "$DIR"/log/*.log "$DIR"/log/*.out "$DIR"/slurm-*.out; do
            [ -s "$file" ] || continue
            log "--- last lines of $file"
            tail -n 15 "$file" >&2
        done
    fi
    if [ "${SLURM_LOCAL_KEEP:-0}" = 1 ]; then log "kept $DIR"; else rm -rf "$DIR"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.1 s until it succeeds or time runs out.
wait_for() {
    local seconds=$1 what=$2
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || fail "timed out after ${seconds}s waiting for $what"
        sleep 0.1
    done
}

# Two free TCP ports for slurmctld and slurmd (another cluster on this host may hold 6817/6818).
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT=6817
while port_in_use "$PORT" || port_in_use $((PORT + 1)); do
    PORT=$((PORT + 2))
    [ "$PORT" -lt 7017 ] || fail "no free port pair between 6817 and 7017"
done

# --- Configuration ---------------------------------------------------------------------------------------------
HOST=$(hostname -s)
CPUS=$(nproc)
mkdir -p "$DIR"/{munge,etc,state,spool,log,work}
chmod 711 "$DIR/munge" # munged refuses a socket directory without execute permission for all
dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1 count=1024 status=none
chmod 400 "$DIR/munge/munge.key"
SOCKET=$DIR/munge/munge.socket.2
cat >"$DIR/etc/slurm.conf" <<CONF
ClusterName=abrsimlocal
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
MpiDefault=none
MailProg=/bin/true
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$DIR/etc/slurm.conf

# --- Start the daemons in the foreground under &, so $! is each daemon's own PID ------------------------------
cd "$DIR"
munged -F --key-file="$DIR/munge/munge.key" --socket="$SOCKET" --pid-file="$DIR/munge/munged.pid" \
    --log-file="$DIR/log/munged.log" --seed-file="$DIR/munge/munged.seed" >log/munged.out 2>&1 &
STARTED+=("munged:$!")
wait_for 10 "munged's socket" test -S "$SOCKET"
slurmctld -D -f "$SLURM_CONF" >log/slurmctld.out 2>&1 &
STARTED+=("slurmctld:$!")
wait_for 20 "slurmctld to answer" scontrol ping
slurmd -D -f "$SLURM_CONF" >log/slurmd.out 2>&1 &
STARTED+=("slurmd:$!")
node_idle() { sinfo -h -o %t | grep -q idle; }
wait_for 30 "the node to become idle" node_idle
log "cluster up (ports $PORT/$((PORT + 1)), daemons ${STARTED[*]})"

# --- The job array ---------------------------------------------------------------------------------------------
WORK=$DIR/work
cp "$ROOT/docs/cluster/sweep-example.json" "$WORK/scenario.json"
cp -r "$ROOT/scenarios/traces" "$WORK/traces"
POLICIES='bba(reservoir=5..15:5),throughput(safety=0.8|0.9)'
# Values go through the environment (--export=ALL): --export=NAME=VALUE lists split at commas.
JOBID=$(ABRSIM="$ABRSIM" SCENARIO=scenario.json TRACES=traces POLICIES="$POLICIES" OUT="$WORK/sharded" \
    sbatch --parsable --array=1-$SHARDS --chdir="$WORK" --output="$DIR/slurm-%A_%a.out" --export=ALL \
    "$ROOT/docs/cluster/slurm-sweep.sbatch") || fail "sbatch refused the job array"
JOBID=${JOBID%%;*}
log "submitted job array $JOBID (tasks 1-$SHARDS)"
array_done() { [ -z "$(squeue -h -j "$JOBID" -o %T 2>/dev/null)" ]; }
wait_for "$TIMEOUT" "job array $JOBID to finish" array_done
states=$(scontrol show job "$JOBID" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr -s ' ')
completed=$(scontrol show job "$JOBID" | grep -c 'JobState=COMPLETED' || true)
[ "$completed" -eq "$SHARDS" ] || fail "expected $SHARDS completed array tasks, got:$states"
log "array finished:$states"

# --- Merge, and compare with one machine's sweep ---------------------------------------------------------------
cd "$WORK"
"$ABRSIM" merge sharded/shard-* --out merged >/dev/null || fail "abrsim merge failed"
"$ABRSIM" sweep scenario.json --traces traces --policies "$POLICIES" --jobs "$CPUS" --out single >/dev/null \
    || fail "the single-machine sweep failed"
for file in summary.csv segments.csv .sweep/runs.csv .sweep/manifest .sweep/progress; do
    cmp "single/$file" "merged/$file" || fail "merged $file differs from the single-machine sweep's"
done
runs=$(($(wc -l <single/summary.csv) - 1))
[ "$runs" -eq 30 ] || fail "expected 30 summary rows (6 traces × 5 policies), got $runs"
log "OK: $SHARDS-task Slurm array, merged: byte-identical to the single-machine sweep ($runs runs)"
