#!/bin/bash
# xpose on one machine with mpirun (Open MPI): NP ranks, by default one per GPU, or 2 without GPUs.
#
#   IN=big.h5:/m OUT=big_T.h5:/m NP=4 jobs/mpirun-local.sh [more transpose options, e.g. --force]
#
# Copy this file and adapt XPOSE, IN, OUT and NP below, or set them in the environment. Each rank
# takes the GPU of its node-local rank (rank i uses GPU i), so leave CUDA_VISIBLE_DEVICES alone, or
# set it once for the whole run to choose which GPUs take part.
#
# Stopping: Ctrl-C, SIGTERM or SIGUSR1 to this script asks the ranks to finish their current
# stage, flush and exit 75; run the same command again with --resume to continue. A second Ctrl-C
# aborts at once (the run can then still be resumed from the last completed stage).
set -euo pipefail

XPOSE=${XPOSE:-xpose}                     # the xpose binary (a path, or a name on PATH)
IN=${IN:-matrix.h5:/data}                 # input FILE:/dataset
OUT=${OUT:-matrix_T.h5:/data}             # output FILE:/dataset (written under a temporary name)
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  gpus=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
else
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
fi
NP=${NP:-$((gpus > 0 ? gpus : 2))}        # ranks: one per GPU; without GPUs one or two per socket
BACKEND=${BACKEND:-auto}                  # cuda, cpu, or auto (the faster of the two where every rank sees a GPU)
HOST_MEM=${HOST_MEM:-}                    # stage buffers per rank, e.g. 8GiB (empty: xpose decides)
MPIRUN=${MPIRUN:-mpirun}
MPIRUN_ARGS=${MPIRUN_ARGS:-}              # e.g. "--oversubscribe" for more ranks than cores
JSON=${JSON:-xpose-local-$(date +%Y%m%d-%H%M%S).json}  # summary of the run

args=(transpose "$IN" "$OUT" --backend "$BACKEND" --json "$JSON")
[ -n "$HOST_MEM" ] && args+=(--host-mem "$HOST_MEM")
args+=("$@")

# --bind-to none: Open MPI binds each rank to one core by default when there are two ranks or fewer,
# which would squeeze every thread of a rank onto that core.
# shellcheck disable=SC2206  # MPIRUN_ARGS is a list of words on purpose
launch=("$MPIRUN" -np "$NP" --bind-to none $MPIRUN_ARGS)
echo "== ${launch[*]} $XPOSE ${args[*]}"

# mpirun runs in its own session (setsid), so Ctrl-C at the terminal reaches only this script,
# which turns it into SIGUSR1 for the ranks: mpirun passes SIGUSR1 on, while on SIGINT or SIGTERM
# it would kill them mid-stage.
stops=0 signalled=0
# shellcheck disable=SC2317  # run by the trap
stop_step() {
  stops=$((stops + 1)) signalled=1
  if [ "$stops" -eq 1 ]; then
    echo "== stopping after the current stage (signal again to abort now)" >&2
    kill -USR1 "$step" 2>/dev/null || true
  else
    echo "== aborting" >&2
    kill -TERM "$step" 2>/dev/null || true
  fi
}
trap stop_step INT TERM USR1

setsid "${launch[@]}" "$XPOSE" "${args[@]}" &
step=$!   # setsid execs mpirun in place: this is mpirun's pid
status=0
wait "$step" || status=$?
# A trapped signal makes `wait` return early (status > 128) while mpirun runs on: wait again.
while [ "$status" -gt 128 ] && [ "$signalled" = 1 ]; do
  signalled=0 status=0
  wait "$step" || status=$?
done
trap - INT TERM USR1

case "$status" in
  0) echo "== done: $OUT (summary in $JSON)" ;;
  75) echo "== stopped cleanly after a stage; continue with the same command and --resume:"
      echo "   IN='$IN' OUT='$OUT' NP=$NP $0 ${*:+$* }--resume" ;;
  *) echo "== xpose failed with exit code $status (the exit codes are listed in README.md)" >&2 ;;
esac
exit "$status"
