#!/usr/bin/env bash
# Run 32, call 6 (kernels/NOTES.md "Run 32"): the mended SanitizerRun32, plain and under
# compute-sanitizer, with OneStackPitch and SpreadCandidates.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
export PATH=$PATH:/usr/local/cuda/bin
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerRun32:CudaKernels.OneStackPitch:CudaKernels.SpreadCandidates' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
SANITIZE_FILTER='CudaKernels.SanitizerRun32' timeout 300 bash tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|^\[  (PASSED|FAILED) |Failure" $L/sanitize.log | head -20
tar czf $O/logs.tgz -C /tmp logs
echo "total ${SECONDS}s"
