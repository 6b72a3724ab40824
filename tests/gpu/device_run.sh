#!/usr/bin/env bash
# The GPU checks on a machine with a GPU: the GPU test suite, compute-sanitizer on the kernel
# tests (sanitize.sh), then bench_kernels' record table.
#   source .gpu-bundle/env.sh && tests/gpu/device_run.sh .gpu-bundle/bin "$OUT" [bench args...]
#   ... tests/gpu/device_run.sh BIN OUT --no-bench   # the suite and the sanitizer only
# The suite runs in SHARDS gtest shards at once (default 4): its host-side reference checks are
# most of its time. Logs go to OUT (suite-I.log, sanitize.log, bench.log, kernels.csv); the
# bench's summary table is printed last. Exits non-zero when the suite, the sanitizer or the
# bench failed.
set -uo pipefail
bin=${1:?usage: device_run.sh BIN_DIR OUT_DIR [bench args]}
out=${2:?usage: device_run.sh BIN_DIR OUT_DIR [bench args]}
shift 2
mkdir -p "$out"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,memory.total --format=csv |
  tee "$out/gpu.txt"
shards=${SHARDS:-4}
echo "== tests ($shards shards at once)"
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$bin/xpose_gpu_tests" >"$out/suite-$i.log" 2>&1 &
  pids+=($!)
done
tests=0
for pid in "${pids[@]}"; do wait "$pid" || tests=1; done
grep -hE "^\[  FAILED  \] [A-Za-z].* \(|Failure$" "$out"/suite-*.log | head -20
cat "$out"/suite-*.log | awk '/^\[       OK/{p++} /^\[  SKIPPED \] [A-Za-z].* \(/{s++}
  /^\[  FAILED  \] [A-Za-z].* \(/{f++} END{printf "suite: %d passed, %d skipped, %d failed\n", p, s, f}'
echo "== sanitizer"
"$(dirname "$0")/sanitize.sh" "$bin/xpose_gpu_tests" >"$out/sanitize.log" 2>&1
sanitize=$?
grep -E "^== |ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$out/sanitize.log" | head -30
bench=skipped
if [ "${1:-}" != --no-bench ]; then
  echo "== bench"
  "$bin/bench_kernels" --csv "$out/kernels.csv" "$@" >"$out/bench.log" 2>&1
  bench=$?
  sed -n '/^# summary/,$p' "$out/bench.log"
  grep -E "FAIL|ERROR" "$out/bench.log" | head -20
fi
echo "tests=$tests sanitize=$sanitize bench=$bench"
[ "$tests" = 0 ] && [ "$sanitize" = 0 ] && { [ "$bench" = 0 ] || [ "$bench" = skipped ]; }
