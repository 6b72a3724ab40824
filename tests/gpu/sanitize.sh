#!/usr/bin/env bash
# compute-sanitizer (memcheck with leak check, racecheck, synccheck) over the kernel tests meant
# for it: small shapes of every element size (SanitizerShapes), small random layouts
# (SanitizerRandomLayouts), the thin and records kernels (SanitizerThinAndRecords), the tile
# orders of tall inputs and one-stack pitches (SanitizerTileOrders) and the in-place orders and
# edge pairs (SanitizerPairOrders). SANITIZE_FILTER replaces the filter, SANITIZE_TOOLS the tools
# (default "memcheck racecheck synccheck"). Not part of ctest: it needs a GPU and takes minutes.
#   tests/gpu/sanitize.sh build/bin/xpose_gpu_tests
set -uo pipefail
exe=${1:?usage: sanitize.sh PATH/TO/xpose_gpu_tests}
filter=${SANITIZE_FILTER:-'CudaKernels.Sanitizer*'}
status=0
for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
  extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  echo "== compute-sanitizer --tool $tool ${extra[*]}"
  compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 3 "$exe" --gtest_filter="$filter"
  rc=$?
  echo "== $tool: exit $rc"
  [ $rc -ne 0 ] && status=$rc
done
exit $status
