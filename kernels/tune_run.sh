#!/usr/bin/env bash
# One GPU call that checks and times every candidate kernel (kernels/cuda/variants.h) side by side:
#   source .gpu-bundle/env.sh && kernels/tune_run.sh [BIN_DIR] [OUT_DIR]
# BIN_DIR defaults to .gpu-bundle/bin, OUT_DIR to $OUT (or ./tune-out). Runs, each under a time
# limit: the kernel GPU tests (every candidate over the test matrix), compute-sanitizer memcheck
# and racecheck over the candidates' small shapes, then bench_kernels --compare (goal shapes,
# every candidate, every output verified on the device). Logs and the CSV go to OUT_DIR; the
# compare table is printed last. About 2-3 minutes on an H100.
set -uo pipefail
bin=${1:-.gpu-bundle/bin}
out=${2:-${OUT:-tune-out}}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw,memory.used \
  --format=csv,noheader | tee "$out/gpu.txt"

echo "== kernel tests (CudaKernels*, CudaKernelVariants*, TriangularIndex*)"
timeout 150 "$bin/xpose_gpu_tests" --gtest_filter='CudaKernel*:TriangularIndex*' \
  --gtest_brief=1 >"$out/tests.log" 2>&1
tests=$?
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran|Failure|FAILED|elem=" "$out/tests.log" | head -40

sanitize=0
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    timeout 45 compute-sanitizer --tool "$tool" --error-exitcode 3 "$bin/xpose_gpu_tests" \
      --gtest_filter='CudaKernels.SanitizerVariants' >"$out/sanitize-$tool.log" 2>&1
    rc=$?
    echo "== $tool (SanitizerVariants): exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize-$tool.log" | tail -1)"
    [ $rc -ne 0 ] && sanitize=$rc
  done
else
  echo "== compute-sanitizer not found: skipped"
fi

echo "== bench_kernels --compare"
timeout 150 "$bin/bench_kernels" --compare --csv "$out/compare.csv" >"$out/compare.log" 2>&1
bench=$?
grep -E "FAIL|ERROR" "$out/compare.log" | head -20
sed -n '/^# compare/,/^# summary/p' "$out/compare.log" | grep -v '^# summary'
tail -1 "$out/compare.log"
echo "tests=$tests sanitize=$sanitize bench=$bench (logs in $out)"
