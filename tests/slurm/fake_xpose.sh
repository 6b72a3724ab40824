#!/bin/bash
# Stands in for xpose in the walltime test of the job scripts: `transpose` without --resume marks
# that the rank started and runs until SIGUSR1 or SIGTERM, then exits 75 as xpose does after a clean
# stage; with --resume it finishes at once. FAKE_XPOSE_DIR is where the marks go.
set -euo pipefail
[ "${1:-}" = transpose ] || { echo "fake xpose: only 'transpose' is faked" >&2; exit 2; }
rank=${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-0}}
for arg in "$@"; do
  if [ "$arg" = --resume ]; then
    echo "fake xpose rank $rank: resumed and finished"
    exit 0
  fi
done
trap 'echo "fake xpose rank $rank: signalled, stopping after the current stage"; exit 75' USR1 TERM
echo "fake xpose rank $rank: started"
touch "${FAKE_XPOSE_DIR:?}/started.$rank"
# Short sleeps: bash runs the trap only between commands.
for _ in $(seq 1200); do sleep 0.1; done
echo "fake xpose rank $rank: never signalled" >&2
exit 1
