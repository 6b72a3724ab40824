#!/usr/bin/env bash
# Run 31, call 9 (kernels/NOTES.md "Review of the whole change"): after the review, the tests of
# the stagger and the one-stack dispatch, and the default against -stagc (now the same launch).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackPitch:CudaKernels.StaggerCandidates:CudaKernels.SanitizerRun31:CudaKernels.InPlaceOneStack:CudaKernels.EveryVariantInPlace:CudaKernels.EveryVariantOutOfPlace:CudaKernels.RandomLayoutsOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
timeout 120 $B/bench_kernels --compare --reps 10 --types f32 --variant default,skew-64x64w16-b4-cm-p256-stagc64 --shapes 9001x81920 > $L/f32.log 2>&1
timeout 120 $B/bench_kernels --compare --reps 10 --types f64 --variant default,skew-32x64w16-b4-cm-stagc128 --shapes 10001x40960 > $L/f64.log 2>&1
timeout 120 $B/bench_kernels --compare --reps 10 --types c128 --variant default,skew-32x32-b4-cm-stag32 --shapes 20480x20480 > $L/c128.log 2>&1
tar czf $O/logs.tgz -C /tmp logs
awk '$3=="cand"||$3=="cand-inplace"{print $1, $2, $3, $4, $7, $9}' $L/f32.log $L/f64.log $L/c128.log
echo "total ${SECONDS}s"
