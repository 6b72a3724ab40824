#!/usr/bin/env bash
# Run 32, call 2 (kernels/NOTES.md "Run 32"): c128's balanced stagger below ten bands in the
# library: the tests it touches, compute-sanitizer, and the default against its candidate.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
export PATH=$PATH:/usr/local/cuda/bin
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.StaggerCandidates:CudaKernels.OneStackPitch:CudaKernels.SanitizerRun31:CudaKernels.CopiesInOrder:CudaKernels.RandomLayoutsOutOfPlace:CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
timeout 150 $B/bench_kernels --compare --reps 10 --types c128 --variant default,skew-32x32-b4-cm-stagc32u10,skew-32x32-b4-cm-stag32 --shapes 3001x40960,2001x40960,17001x20480 > $L/c128.log 2>&1
echo "bench rc=$? (${SECONDS}s)"
tar czf $O/logs.tgz -C /tmp logs
SANITIZE_FILTER='CudaKernels.SanitizerRun31:CudaKernels.CopiesInOrder' timeout 300 bash tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|^\[  (PASSED|FAILED) " $L/sanitize.log | head -20
tar czf $O/logs.tgz -C /tmp logs
awk '$3=="cand"{print $1, $2, $4, $7, $9}' $L/c128.log
echo "total ${SECONDS}s"
