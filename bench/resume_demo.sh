#!/usr/bin/env bash
# Kill a 2-rank transpose with SIGKILL about half way, resume it, and compare with an
# uninterrupted run: the output must be byte-identical and the resumed part take about half the
# time. Then stop a run with SIGTERM and resume that too.
#   bench/resume_demo.sh XPOSE INPUT.h5:/path WORKDIR [HOST_MEM]
set -uo pipefail
X=$1; IN=$2; W=$3; MEM=${4:-256MiB}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
run() { mpirun -np 2 "$X" transpose "$IN" "$@" --host-mem "$MEM"; }
t() {
  local s=$(date +%s.%N); "$@"; local rc=$?
  echo "  ($(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s, exit $rc)"
}
rm -f "$W"/full.h5 "$W"/res.h5 "$W"/.res.h5.* "$W"/term.h5 "$W"/.term.h5.*

echo "== uninterrupted run"
t run "$W/full.h5:/m" -q
echo "== run killed with SIGKILL once half of its stages are done"
run "$W/res.h5:/m" --progress-interval 1 2>&1 | sed 's/^/  | /' &
total=""
while :; do
  done_=$(grep -s '^stages_done=' "$W/.res.h5.xpose-journal" | cut -d= -f2)
  total=$(grep -s '^stages=' "$W/.res.h5.xpose-journal" | cut -d= -f2)
  [ -n "$done_" ] && [ -n "$total" ] && [ "$done_" -ge $((total / 2)) ] && break
  sleep 0.02
done
pkill -KILL -f "xpose transpose $IN $W/res.h5" ; wait 2>/dev/null
echo "  killed; the journal says $(grep '^stages_done=' "$W/.res.h5.xpose-journal" | cut -d= -f2) of $total stages are done"
echo "== --resume"
t run "$W/res.h5:/m" --resume -q
cmp "$W/full.h5" "$W/res.h5" && echo "  resumed output is byte-identical to the uninterrupted run's (cmp)"
mpirun -np 2 "$X" verify "$IN" "$W/res.h5:/m"

echo "== run stopped with SIGTERM to its ranks"
run "$W/term.h5:/m" -q --json "$W/term.json" &
pid=$!
while [ "$(grep -s '^stages_done=' "$W/.term.h5.xpose-journal" | cut -d= -f2)" -lt 3 ] 2>/dev/null ||
      [ ! -e "$W/.term.h5.xpose-journal" ]; do sleep 0.02; done
pkill -TERM -f "^$X transpose $IN $W/term.h5"; wait $pid; echo "  exit code $? (mpirun)"
cat "$W/term.json"
echo "== --resume"
t run "$W/term.h5:/m" --resume -q
cmp "$W/full.h5" "$W/term.h5" && echo "  resumed output is byte-identical to the uninterrupted run's (cmp)"
