#!/usr/bin/env bash
# One call on a GPU machine: the GPU test suite, compute-sanitizer, then bench_kernels.
#   source .gpu-bundle/env.sh && tests/gpu/device_run.sh .gpu-bundle/bin "$OUT" [bench args...]
#   ... tests/gpu/device_run.sh BIN OUT --no-bench   # the suite and the sanitizer only
# Logs (the suite's as suite-N.log) and the CSV go to OUT; the bench's summary table is printed
# last. Exits non-zero when the suite, the sanitizer or the bench failed.
set -uo pipefail
bin=${1:?usage: device_run.sh BIN_DIR OUT_DIR [bench args]}
out=${2:?usage: device_run.sh BIN_DIR OUT_DIR [bench args]}
shift 2
mkdir -p "$out"
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw,memory.used \
  --format=csv | tee "$out/gpu.txt"
echo "== tests (four shards at once: suite_shards.sh)"
"$(dirname "$0")/suite_shards.sh" "$bin" "$out" 4
tests=$?
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
