#!/usr/bin/env bash
# Run 33, call 14 (kernels/NOTES.md "Run 33"): the final code's changed tests, and the sanitizers
# on InPlaceFewBlocks and SanitizerRun33.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs14; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs14; }
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlaceFewBlocks:CudaKernels.SanitizerRun33:CudaKernels.RandomLayoutsInPlace:CudaKernels.NarrowEdgePairs' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|in place, " $L/tests.log | head -12; pack
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlaceFewBlocks:CudaKernels.SanitizerRun33' > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/san-$tool.log; pack
done
echo "total ${SECONDS}s"
