#!/usr/bin/env bash
# Run 29, review check (kernels/NOTES.md "Run 29", review): after the mend (device_dram,
# records_accepts through the thin helpers), the dispatch tests and the records / c128 figures.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackPitch:CudaKernels.Records*:CudaKernels.SanitizerRecords:CudaKernels.LargerSquare*:CudaKernels.RandomLayoutsOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|dispatch entry" $L/tests.log | head -12
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,norecords --types u8 --shapes 3x178956968,178956968x3,16x33554432 > $L/records.log 2>&1
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,tile-16x16 --types c128 --shapes 16384x16384,20480x12288 > $L/c128.log 2>&1
head -1 $L/c128.log
tar czf $O/logs.tgz -C /tmp logs
awk '$3=="cand"{print $1, $2, $4, $7, $9}' $L/records.log $L/c128.log
echo "total ${SECONDS}s"
