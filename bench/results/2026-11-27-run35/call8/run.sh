#!/usr/bin/env bash
# Run 35, call 8 (kernels/NOTES.md "Run 35"): the final code's GPU suite and memcheck on
# OutOfPlaceFewTiles; the u8 / u16 defaults at a few call 7 shapes.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs8; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs8; }
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|out of place, (1|2)-byte|no random case" $L/suite.log | head -20; pack
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OutOfPlaceFewTiles' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY" $L/memcheck.log | head -2; pack
$B/bench_kernels --compare --reps 30 --types u8,u16 --variant default --shapes 1201x1201,3301x3301,6001x1101 > $L/defaults.log 2>&1
awk '$3=="cand"&&$9=="ok"{print $1, $2, $4, $6, $7}' $L/defaults.log
pack
echo "total ${SECONDS}s"
