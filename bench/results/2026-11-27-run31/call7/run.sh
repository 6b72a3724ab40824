#!/usr/bin/env bash
# Run 31, call 7: compute-sanitizer (memcheck, racecheck, synccheck) on run 31's launches
# (CudaKernels.SanitizerRun31: the interleaved in-place order, the balanced stagger bands).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
export PATH=$PATH:/usr/local/cuda/bin
which compute-sanitizer | tee $L/which.txt
timeout 100 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerRun31' > $L/plain.log 2>&1
echo "plain rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/plain.log | head
SANITIZE_FILTER='CudaKernels.SanitizerRun31' timeout 420 bash tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|^\[  (PASSED|FAILED) " $L/sanitize.log | head -20
tar czf $O/logs.tgz -C /tmp logs
echo "total ${SECONDS}s"
