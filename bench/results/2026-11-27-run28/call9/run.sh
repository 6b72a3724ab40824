#!/usr/bin/env bash
# Run 28, call 9 (kernels/NOTES.md "Run 28, second part"): ThinCandidate and SanitizerThin with
# the P x P block shapes added (m = 4, 8, 12: tall rows of 1-3 words, partial last blocks),
# memcheck and racecheck on SanitizerThin.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 240 $B/xpose_gpu_tests --gtest_filter='CudaKernels.ThinCandidate:CudaKernels.SanitizerThin:CudaKernels.LargerSquare*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|OK \]" $L/tests.log | head
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.SanitizerThin > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $L/san-$tool.log | head -3
done
tar czf $O/logs.tgz -C /tmp logs
echo "total ${SECONDS}s"
