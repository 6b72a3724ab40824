#!/usr/bin/env bash
# Run 34, review (kernels/NOTES.md "Run 34"): the reviewed code on whichever card comes: the whole
# GPU suite, memcheck on HighBandwidthDispatch and InPlaceFewBlocks, the goal shapes (f32).
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|TMA entry" $L/suite.log | head -8; pack
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.HighBandwidthDispatch:CudaKernels.InPlaceFewBlocks' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY" $L/memcheck.log; pack
$B/bench_kernels --compare --types f32 --variant default,notma --shapes 16384x16384,20000x30000,16411x16411 > $L/f32.log 2>&1
awk '($3=="cand"||$3=="cublas-geam"||$3=="cand-inplace")&&$9=="ok"{print $1, $2, $3, $4, $6, $7}' $L/f32.log
grep -l -E "FAIL|mismatch" $L/f32.log
pack; echo "total ${SECONDS}s"
