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
# Once: the sleep's death and the shell's own trap can both report the same signal, and a
# trap still pending would otherwise run again on the way out.
stop() {
  trap '' USR1 TERM
  echo "fake xpose rank $rank: signalled, stopping after the current stage"
  exit 75
}
trap stop USR1 TERM
echo "fake xpose rank $rank: started"
touch "${FAKE_XPOSE_DIR:?}/started.$rank"
# Short sleeps: bash runs the trap only between commands. srun signals every process of the task,
# so the sleep may die of the signal (status 138 or 143) before this shell's own trap runs; that
# counts as the signal too, and must not end the script through `set -e` with the sleep's status.
for _ in $(seq 1200); do
  st=0
  sleep 0.1 || st=$?
  case $st in 0) ;; 138|143) stop ;; *) echo "fake xpose rank $rank: sleep failed ($st)" >&2; exit 1 ;; esac
done
echo "fake xpose rank $rank: never signalled" >&2
exit 1
