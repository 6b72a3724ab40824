#!/usr/bin/env bash
# End-to-end transposes through the engine: for each TYPE:SHAPE:GPU_MEM, `xpose generate` a
# matrix, `xpose transpose --backend cuda --gpu-mem GPU_MEM` (stage buffers that size, so the
# kernels get pieces of that size), then `xpose verify` on every element. One line a case, the
# logs in OUT_DIR/e2e-TYPE-SHAPE.log; a step after a failed one is skipped (rc -); exits non-zero
# when a step failed.
#   tests/gpu/engine_e2e.sh BIN_DIR OUT_DIR TYPE:SHAPE:GPU_MEM...
#   e.g. tests/gpu/engine_e2e.sh .gpu-bundle/bin "$OUT" float32:8004x16004:2GiB complex128:1411x1411:256MiB
# The matrices live in $XPOSE_E2E_DIR (default /dev/shm/xpose-e2e), removed after each case.
# BACKEND=cpu runs the same cases without a GPU (GPU_MEM is then ignored): the script's own check.
set -uo pipefail
bin=${1:?usage: engine_e2e.sh BIN_DIR OUT_DIR TYPE:SHAPE:GPU_MEM...}
out=${2:?usage: engine_e2e.sh BIN_DIR OUT_DIR TYPE:SHAPE:GPU_MEM...}
shift 2
[ $# -gt 0 ] || { echo "engine_e2e.sh: no TYPE:SHAPE:GPU_MEM cases" >&2; exit 2; }
backend=${BACKEND:-cuda}
dir=${XPOSE_E2E_DIR:-/dev/shm/xpose-e2e}
mkdir -p "$out" "$dir" || exit 2
status=0
for c in "$@"; do
  IFS=: read -r t sh gm <<<"$c"
  if [ -z "$t" ] || [ -z "$sh" ] || [ -z "$gm" ]; then
    echo "engine_e2e.sh: '$c' is not TYPE:SHAPE:GPU_MEM" >&2
    status=1
    continue
  fi
  log=$out/e2e-$t-$sh.log
  mem=()
  [ "$backend" = cuda ] && mem=(--gpu-mem "$gm")
  "$bin/xpose" generate "$dir/a.h5:/m" --shape "$sh" --dtype "$t" -f -q >"$log" 2>&1
  g=$?
  x=- v=-  # a step after a failed one does not run
  if [ $g -eq 0 ]; then
    timeout 300 "$bin/xpose" transpose "$dir/a.h5:/m" "$dir/b.h5:/m" --backend "$backend" \
      "${mem[@]}" --force >>"$log" 2>&1
    x=$?
  fi
  if [ "$x" = 0 ]; then
    timeout 300 "$bin/xpose" verify "$dir/a.h5:/m" "$dir/b.h5:/m" >>"$log" 2>&1
    v=$?
  fi
  echo "e2e $t $sh ($backend${mem[*]:+, gpu-mem $gm}): generate rc=$g transpose rc=$x verify rc=$v:" \
    "$(tail -1 "$log")"
  [ "$v" = 0 ] || status=1
  rm -f "$dir/a.h5" "$dir/b.h5"
done
exit $status
