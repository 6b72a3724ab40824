#!/usr/bin/env bash
# Run 30, call 12 (kernels/NOTES.md "Run 30, second part"): the mended OneStackPitch test with the
# other tests of the skewed order and the stagger.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackPitch:CudaKernels.SkewOrderTall:CudaKernels.StaggerCandidates:CudaKernels.RandomLayoutsOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|      OK) |Failure" $L/tests.log | head -20
tar czf $O/logs.tgz -C /tmp logs
echo "total ${SECONDS}s"
