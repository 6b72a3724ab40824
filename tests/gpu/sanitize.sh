#!/usr/bin/env bash
# compute-sanitizer over the kernels, on the small shapes of CudaKernels.SanitizerShapes (every
# element size; full, edge and diagonal tiles; batches; misaligned fallbacks) and the 450 small
# random layouts of CudaKernels.SanitizerRandomLayouts (pitches, gaps, shifted pointers, tall
# inputs in column sweeps), and the thin and records kernels' classes (SanitizerThin,
# SanitizerRecords), run 31's interleaved in-place order and balanced stagger bands
# (SanitizerRun31), run 32's spread groups (SanitizerRun32) and run 33's guarded edge pairs and
# small-n in-place kernels (SanitizerRun33); SANITIZE_FILTER replaces the filter. Not part of
# ctest: it needs a GPU and takes minutes. Run on a GPU machine:
#   tests/gpu/sanitize.sh build/bin/xpose_gpu_tests
set -uo pipefail
exe=${1:?usage: sanitize.sh PATH/TO/xpose_gpu_tests}
filter=${SANITIZE_FILTER:-'CudaKernels.SanitizerShapes:CudaKernels.SanitizerRandomLayouts:CudaKernels.SanitizerThin:CudaKernels.SanitizerRecords:CudaKernels.SanitizerRun31:CudaKernels.SanitizerRun32:CudaKernels.SanitizerRun33'}
status=0
for tool in memcheck racecheck synccheck; do
  extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  echo "== compute-sanitizer --tool $tool ${extra[*]}"
  compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 3 "$exe" --gtest_filter="$filter"
  rc=$?
  echo "== $tool: exit $rc"
  [ $rc -ne 0 ] && status=$rc
done
exit $status
