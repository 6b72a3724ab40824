#!/usr/bin/env bash
# Run 32, call 16 (kernels/NOTES.md "Run 32"): after the review's test helper (candidates_with),
# the four candidate tests it rewrote.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 250 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerRun31:CudaKernels.SanitizerRun32:CudaKernels.StaggerCandidates:CudaKernels.SpreadCandidates' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[ +(OK|PASSED|FAILED) |Failure" $L/tests.log | head
tar czf $O/logs.tgz -C /tmp logs
