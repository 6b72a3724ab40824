#!/bin/bash
# xpose on several machines without a batch scheduler: Open MPI's mpirun with a hostfile.
#
#   HOSTFILE=hosts IN=/shared/big.h5:/m OUT=/shared/big_T.h5:/m jobs/mpirun-hostfile.sh [options]
#
# Copy this file and adapt XPOSE, IN, OUT, HOSTFILE and RANKS_PER_NODE below, or set them in the
# environment. The hostfile lists one machine per line (`node01 slots=4`). Every machine must
# reach the others by ssh without a password, see IN and OUT at the same paths (a parallel file
# system: Lustre, GPFS, BeeGFS; NFS works but is slow), and find xpose at the same path.
# Ranks are placed RANKS_PER_NODE to a machine; on GPU machines use one per GPU: each rank takes
# the GPU of its node-local rank, so leave CUDA_VISIBLE_DEVICES alone (or set it the same on all).
#
# Stopping: Ctrl-C, SIGTERM or SIGUSR1 to this script asks the ranks to finish their current
# stage, flush and exit 75; run the same command again with --resume to continue. A second Ctrl-C
# aborts at once.
set -euo pipefail

XPOSE=${XPOSE:-xpose}                        # the xpose binary, same path on every machine
IN=${IN:-/shared/matrix.h5:/data}            # input FILE:/dataset on the shared file system
OUT=${OUT:-/shared/matrix_T.h5:/data}        # output FILE:/dataset (written under a temporary name)
HOSTFILE=${HOSTFILE:-hosts}                  # one machine per line: "node01 slots=4"
RANKS_PER_NODE=${RANKS_PER_NODE:-4}          # one per GPU; without GPUs one or two per socket
BACKEND=${BACKEND:-auto}                     # cuda, cpu, or auto (the faster of the two where every rank sees a GPU)
HOST_MEM=${HOST_MEM:-}                       # stage buffers per rank, e.g. 8GiB (empty: xpose decides)
MPIRUN=${MPIRUN:-mpirun}
MPIRUN_ARGS=${MPIRUN_ARGS:-}                 # e.g. "--mca pml ucx" for InfiniBand through UCX
JSON=${JSON:-xpose-$(date +%Y%m%d-%H%M%S).json}  # summary of the run

[ -r "$HOSTFILE" ] || { echo "error: no hostfile '$HOSTFILE' (one machine per line: node01 slots=4)" >&2; exit 2; }
nodes=$(grep -cEv '^[[:space:]]*(#|$)' "$HOSTFILE" || true)
[ "$nodes" -gt 0 ] || { echo "error: the hostfile '$HOSTFILE' lists no machine" >&2; exit 2; }
NP=$((nodes * RANKS_PER_NODE))

args=(transpose "$IN" "$OUT" --backend "$BACKEND" --json "$JSON")
[ -n "$HOST_MEM" ] && args+=(--host-mem "$HOST_MEM")
args+=("$@")

# ppr:N:node places N ranks on each machine, so node-local rank i is GPU i everywhere.
# --bind-to none leaves each rank's threads free to use the machine's cores.
# -x copies the environment to the remote ranks: the library path, and the NCCL, UCX and HDF5
# settings a site tunes (NCCL_SOCKET_IFNAME, NCCL_IB_HCA, UCX_NET_DEVICES, HDF5_...).
launch=("$MPIRUN" -np "$NP" --hostfile "$HOSTFILE" --map-by "ppr:$RANKS_PER_NODE:node" --bind-to none)
for name in $(compgen -e); do
  case "$name" in PATH | LD_LIBRARY_PATH | NCCL_* | UCX_* | HDF5_* | OMP_*) launch+=(-x "$name") ;; esac
done
# shellcheck disable=SC2206  # MPIRUN_ARGS is a list of words on purpose
launch+=($MPIRUN_ARGS)
echo "== $nodes machine(s) x $RANKS_PER_NODE ranks: ${launch[*]} $XPOSE ${args[*]}"

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
      echo "   HOSTFILE='$HOSTFILE' RANKS_PER_NODE=$RANKS_PER_NODE IN='$IN' OUT='$OUT' $0 ${*:+$* }--resume" ;;
  *) echo "== xpose failed with exit code $status (the exit codes are listed in README.md)" >&2 ;;
esac
exit "$status"
