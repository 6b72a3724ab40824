#!/usr/bin/env bash
# The CPU job script users copy (jobs/slurm-cpu.sbatch), run unchanged under a real Slurm.
#
#   run_slurm_test.sh XPOSE_BINARY REPO_ROOT
#
# Installs Debian's slurm-wlm and munge where missing, starts a private one-node cluster (munged,
# slurmctld, slurmd; every file under one temporary directory, its own ports and munge socket, so a
# Slurm or munge already on the machine is left alone), then:
#   1. submits jobs/slurm-cpu.sbatch with sbatch on a small generated matrix and checks that the
#      job is COMPLETED with exit code 0:0, that its log and JSON summary are named after the job,
#      and that `xpose verify` accepts the output;
#   2. walltime path: submits the same script with a stand-in for xpose (fake_xpose.sh) and sends
#      the batch shell SIGUSR1, as `#SBATCH --signal=B:USR1@...` does before the time limit; the
#      script must forward it to the ranks, requeue the job on their exit 75, and the requeued run
#      must pass --resume, complete, and append to the same log.
# Stops the daemons and removes the directory on exit. Exits 77 (skipped) only where the cluster
# cannot be started here (no root, no packages, a daemon that will not run); a job that fails fails
# the test.
set -euo pipefail

XPOSE=${1:?usage: run_slurm_test.sh XPOSE_BINARY REPO_ROOT}
REPO=${2:?usage: run_slurm_test.sh XPOSE_BINARY REPO_ROOT}
XPOSE=$(cd "$(dirname "$XPOSE")" && pwd)/$(basename "$XPOSE")
REPO=$(cd "$REPO" && pwd)
JOB_SCRIPT=$REPO/jobs/slurm-cpu.sbatch
FAKE_XPOSE=$REPO/tests/slurm/fake_xpose.sh
SKIP=77
JOB_TIMEOUT=${XPOSE_SLURM_JOB_TIMEOUT:-150}   # seconds a job may take, queueing included
# XPOSE_SLURM_KEEP=1 keeps the cluster's directory (configuration, logs, job output) for a look.

say() { printf 'slurm test: %s\n' "$*"; }
skip() { say "SKIPPED: $*"; exit "$SKIP"; }
fail() { say "FAILED: $*" >&2; exit 1; }

# A test run inside a Slurm job must not talk to that cluster.
for name in $(compgen -e); do
  case "$name" in SLURM_*) unset "$name" ;; esac
done

[ -x "$XPOSE" ] || fail "no xpose binary at $XPOSE"
[ -r "$JOB_SCRIPT" ] || fail "no job script at $JOB_SCRIPT"
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs; run the tests as root"

# --- one directory for everything -----------------------------------------------------
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xpose-slurm.XXXXXX")
# munged insists that everyone may traverse the directory holding its socket.
chmod 755 "$TMP"
mkdir -p "$TMP/state" "$TMP/spool" "$TMP/work"
DAEMON_PIDS=()
JOB_IDS=()

cleanup() {
  local rc=$? pid
  set +e
  for id in "${JOB_IDS[@]}"; do scancel "$id" >/dev/null 2>&1; done
  # Reverse order of start: slurmd, slurmctld, then munged, which the others need to shut down.
  for ((i = ${#DAEMON_PIDS[@]} - 1; i >= 0; i--)); do
    pid=${DAEMON_PIDS[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if [ "$rc" -ne 0 ] && [ "$rc" -ne "$SKIP" ]; then
    for f in "$TMP"/slurmctld.log "$TMP"/slurmd.log; do
      [ -f "$f" ] && { echo "--- last lines of $(basename "$f")"; tail -n 25 "$f"; }
    done
  fi
  if [ -n "${XPOSE_SLURM_KEEP:-}" ]; then say "kept $TMP"; else rm -rf "$TMP"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- packages ----------------------------------------------------------------------------------
have_slurm() {
  local c
  for c in munged mungekey slurmctld slurmd sbatch srun scontrol sinfo scancel; do
    command -v "$c" >/dev/null 2>&1 || return 1
  done
}
if ! have_slurm; then
  command -v apt-get >/dev/null 2>&1 || skip "slurm-wlm and munge are missing and there is no apt-get"
  say "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  # The lock timeout waits out a concurrent apt run (unattended upgrades) instead of failing.
  apt=(apt-get -q -o DPkg::Lock::Timeout=120)
  if ! { "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends slurm-wlm munge; } >"$TMP/apt.log" 2>&1; then
    tail -n 5 "$TMP/apt.log" >&2
    skip "apt-get could not install slurm-wlm and munge"
  fi
  have_slurm || skip "slurm-wlm and munge installed, but their commands are not on PATH"
fi

# --- a private cluster under one directory ----------------------------------------------------
# Two free TCP ports for slurmctld and slurmd, away from Slurm's defaults (6817/6818), which a
# real installation on this machine may hold.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 20000))
    [ "$p" != "${1:-}" ] && port_free "$p" && { echo "$p"; return 0; }
  done
  return 1
}
CTLD_PORT=$(pick_port) || skip "no free TCP port for slurmctld"
SLURMD_PORT=$(pick_port "$CTLD_PORT") || skip "no free TCP port for slurmd"

# munge: its own key and socket, so the machine's munged (if any) and /etc/munge are not touched.
mungekey --create --keyfile="$TMP/munge.key" 2>/dev/null ||
  { dd if=/dev/urandom of="$TMP/munge.key" bs=1 count=128 status=none && chmod 600 "$TMP/munge.key"; }
munged --foreground --force --key-file="$TMP/munge.key" --socket="$TMP/munge.sock" \
  --pid-file="$TMP/munged.pid" --log-file="$TMP/munged.log" --seed-file="$TMP/munged.seed" \
  >"$TMP/munged.out" 2>&1 &
DAEMON_PIDS+=($!)
for _ in $(seq 50); do [ -S "$TMP/munge.sock" ] && break; sleep 0.1; done
if ! munge -n -S "$TMP/munge.sock" | unmunge -S "$TMP/munge.sock" >/dev/null 2>&1; then
  cat "$TMP/munged.out" "$TMP/munged.log" 2>/dev/null | tail -5
  skip "munged does not start here"
fi

NODE=$(hostname -s)
CPUS=$(nproc)
# A little under the physical memory: slurmd drains a node that has less than it is configured with.
MEM_MB=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
export SLURM_CONF=$TMP/slurm.conf
cat >"$SLURM_CONF" <<EOF
# One node, no systemd, no cgroups: what a container or a CI machine offers.
ClusterName=xposetest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# cred_expire is also how long a requeued job waits before it may start again (default 120 s).
AuthInfo=socket=$TMP/munge.sock,cred_expire=10
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/slurmctld.pid
SlurmdPidFile=$TMP/slurmd.pid
SlurmctldLogFile=$TMP/slurmctld.log
SlurmdLogFile=$TMP/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
# A requeued job becomes eligible by the clock, which only the periodic pass notices.
SchedulerParameters=sched_interval=2
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
# Finished jobs stay visible to scontrol (there is no accounting database) for an hour.
MinJobAge=3600
# Two GPUs that exist only as a count, so the GPU job scripts' requests can be granted here.
GresTypes=gpu
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB Gres=gpu:2 State=UNKNOWN
PartitionName=xpose Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

# slurmd drops GPUs without device files; any two character devices stand in (no cgroups here).
echo "NodeName=$NODE Name=gpu File=/dev/null,/dev/zero" >"$TMP/gres.conf"

slurmctld -D -f "$SLURM_CONF" >"$TMP/slurmctld.out" 2>&1 &
DAEMON_PIDS+=($!)
ctld_up=0
for _ in $(seq 100); do
  kill -0 "${DAEMON_PIDS[-1]}" 2>/dev/null || break
  scontrol ping 2>/dev/null | grep -q 'is UP' && { ctld_up=1; break; }
  sleep 0.2
done
if [ "$ctld_up" != 1 ]; then
  tail -n 5 "$TMP/slurmctld.out" "$TMP/slurmctld.log" 2>/dev/null
  skip "slurmctld does not start here"
fi

slurmd -D -f "$SLURM_CONF" -N "$NODE" >"$TMP/slurmd.out" 2>&1 &
DAEMON_PIDS+=($!)
state=""
for _ in $(seq 150); do
  if ! kill -0 "${DAEMON_PIDS[-1]}" 2>/dev/null; then
    tail -n 5 "$TMP/slurmd.out" "$TMP/slurmd.log" 2>/dev/null
    skip "slurmd does not start here"
  fi
  state=$(sinfo -h -N -n "$NODE" -o '%T' 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
# The daemons run; a node that will not take jobs is this test's configuration at fault.
[ "$state" = idle ] || fail "node $NODE is '$state', not idle: $(sinfo -h -N -n "$NODE" -o '%E' 2>/dev/null)"
say "cluster up: node $NODE, $CPUS CPUs, ${MEM_MB} MB, slurmctld :$CTLD_PORT, slurmd :$SLURMD_PORT"

# --- helpers -----------------------------------------------------------------------------------
job_field() { scontrol show job -o "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

# Waits for a job to leave the queue for good; prints its final state.
wait_job() {
  local id=$1 state="" deadline=$((SECONDS + JOB_TIMEOUT))
  while [ "$SECONDS" -lt "$deadline" ]; do
    state=$(job_field "$id" JobState)
    case "$state" in
      COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
        echo "$state"; return 0 ;;
    esac
    sleep 0.5
  done
  echo "still ${state:-unknown} after ${JOB_TIMEOUT}s"
}

show_log() { echo "--- $1"; cat "$1"; echo "---"; }

RANKS=$((CPUS >= 2 ? 2 : 1))
# The job script's #SBATCH lines ask for a larger machine; these override them as users would.
SBATCH_ARGS=(--parsable --chdir="$TMP/work" --nodes=1 --ntasks-per-node="$RANKS" --cpus-per-task=1 --time=00:10:00)
# Open MPI's shared-memory transport cannot use CMA (ptrace) in many containers.
export OMPI_MCA_btl_vader_single_copy_mechanism=none

# --- 1. real transposes ---------------------------------------------------------------------------
# The CPU script as the docs show it (srun --mpi=pmix), the same with mpirun inside the allocation,
# and the GPU scripts' Slurm side (GPU requests, srun --gpu-bind) with the cpu backend, as this
# machine has no GPU. Submitted together; the node runs them one after another.
cd "$TMP/work"
"$XPOSE" generate "$TMP/work/in.h5:/m" --shape 300x500 --dtype float64 --quiet ||
  fail "xpose generate could not write the input"
submit_transpose() {  # NAME SCRIPT [VAR=VALUE...] [-- SBATCH OPTIONS...]: prints the job id
  local name=$1 script=$2 id
  shift 2
  local vars=() extra=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
  [ $# -gt 0 ] && { shift; extra=("$@"); }
  id=$(env XPOSE="$XPOSE" IN="$TMP/work/in.h5:/m" OUT="$TMP/work/out-$name.h5:/m" PROGRESS_INTERVAL=1 \
    "${vars[@]}" sbatch "${SBATCH_ARGS[@]}" "${extra[@]}" "$script") || fail "sbatch refused $script ($name)"
  echo "${id%%;*}"
}
check_transpose() {  # NAME ID
  local name=$1 id=$2 final exit_code log json
  final=$(wait_job "$id")
  log=$TMP/work/xpose-transpose-$id.out
  exit_code=$(job_field "$id" ExitCode)
  [ -f "$log" ] && show_log "$log"
  [ "$final" = COMPLETED ] || fail "$name: job $id ended $final (exit code $exit_code), not COMPLETED"
  [ "$exit_code" = 0:0 ] || fail "$name: job $id exit code is $exit_code, not 0:0"
  [ -f "$log" ] || fail "$name: no log named after the job: expected $log, have: $(ls "$TMP/work")"
  [ "$(job_field "$id" StdOut)" = "$log" ] || fail "$name: job $id logs to $(job_field "$id" StdOut), not $log"
  json=$TMP/work/xpose-transpose-$id.json
  [ -f "$json" ] || fail "$name: no JSON summary named after the job: expected $json"
  grep -Eq '"exit_code": *0[,}[:space:]]' "$json" || fail "$name: the JSON summary does not report exit code 0: $(cat "$json")"
  grep -Eq "\"ranks\": *${RANKS}[,}[:space:]]" "$json" || fail "$name: the JSON summary does not report $RANKS ranks: $(cat "$json")"
  "$XPOSE" verify "$TMP/work/in.h5:/m" "$TMP/work/out-$name.h5:/m" || fail "$name: the output of job $id does not verify"
  say "$name: job $id COMPLETED, exit code $exit_code, log $(basename "$log"), output verified"
}

# The GPU jobs run xpose through a wrapper that notes which GPUs each rank was given: all of the
# job's, so that each can take its own by node-local rank.
cat >"$TMP/work/xpose-noting-gpus" <<EOF
#!/bin/sh
echo "\${SLURM_JOB_ID} \${SLURM_PROCID} [\${CUDA_VISIBLE_DEVICES-unset}]" >>"$TMP/work/gpus-seen"
exec "$XPOSE" "\$@"
EOF
chmod +x "$TMP/work/xpose-noting-gpus"

names=(cpu-srun cpu-mpirun gpu-node multi-node)
ids=()
ids+=("$(submit_transpose cpu-srun "$JOB_SCRIPT")")
# Open MPI's mpirun refuses root unless told; the test runs as root.
ids+=("$(submit_transpose cpu-mpirun "$JOB_SCRIPT" LAUNCHER=mpirun OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)")
for script in gpu-node multi-node; do
  ids+=("$(submit_transpose "$script" "$REPO/jobs/slurm-$script.sbatch" XPOSE="$TMP/work/xpose-noting-gpus" \
    BACKEND=cpu EXCHANGE=mpi -- --gpus-per-node="$RANKS")")
done
JOB_IDS+=("${ids[@]}")
say "submitted jobs ${ids[*]} (${names[*]}), $RANKS ranks each"
for i in "${!names[@]}"; do check_transpose "${names[i]}" "${ids[i]}"; done
all_gpus=$(seq -s, 0 $((RANKS - 1)))
for i in 2 3; do
  seen=$(grep -c "^${ids[i]} [0-9]* \[$all_gpus\]\$" "$TMP/work/gpus-seen" || true)
  [ "$seen" -eq "$RANKS" ] ||
    fail "${names[i]}: not every rank was given all the job's GPUs ($all_gpus): $(grep "^${ids[i]} " "$TMP/work/gpus-seen")"
done
say "gpu-node, multi-node: every rank was given GPUs $all_gpus"

# --- 2. the walltime path: signal, forward, exit 75, requeue, resume ------------------------------
rm -f "$TMP/work"/started.*
id=$(XPOSE=$FAKE_XPOSE FAKE_XPOSE_DIR=$TMP/work IN=$TMP/work/in.h5:/m OUT=$TMP/work/never.h5:/m \
  sbatch "${SBATCH_ARGS[@]}" "$JOB_SCRIPT") || fail "sbatch refused $JOB_SCRIPT"
id=${id%%;*}
JOB_IDS+=("$id")
say "submitted job $id (walltime path, a stand-in for xpose)"
deadline=$((SECONDS + JOB_TIMEOUT))
started=0
while [ "$SECONDS" -lt "$deadline" ]; do
  started=$(find "$TMP/work" -maxdepth 1 -name 'started.*' | wc -l)
  [ "$started" -ge "$RANKS" ] && break
  sleep 0.2
done
[ "$started" -ge "$RANKS" ] || fail "job $id: $started of $RANKS ranks started (state $(job_field "$id" JobState))"
# What --signal=B:USR1@T does at T seconds before the limit: SIGUSR1 to the batch shell alone.
scancel --batch --signal=USR1 "$id" || fail "scancel could not signal job $id"
final=$(wait_job "$id")
log=$TMP/work/xpose-transpose-$id.out
exit_code=$(job_field "$id" ExitCode)
restarts=$(job_field "$id" Restarts)
[ -f "$log" ] && show_log "$log"
[ "$final" = COMPLETED ] || fail "job $id ended $final (exit code $exit_code), not COMPLETED after a requeue"
[ "$exit_code" = 0:0 ] || fail "job $id exit code is $exit_code, not 0:0"
[ "$restarts" = 1 ] || fail "job $id was restarted ${restarts:-?} times, not once"
grep -q 'requeueing job' "$log" || fail "job $id: the log does not show the requeue"
# Ranks that reported the signal (each once; counted by rank so a repeated line cannot stand in
# for a rank that missed it).
signalled=$(grep -o 'fake xpose rank [0-9]*: signalled, stopping' "$log" | sort -u | wc -l)
[ "$signalled" -eq "$RANKS" ] || fail "job $id: $signalled of $RANKS ranks got SIGUSR1"
[ "$(grep -c 'resumed and finished' "$log")" -eq "$RANKS" ] ||
  fail "job $id: the requeued run did not resume (--resume) on every rank, or its lines are not in the same log"
say "job $id: SIGUSR1 forwarded, exit 75, requeued, resumed: COMPLETED, exit code $exit_code, restarts $restarts"
say "PASSED"
