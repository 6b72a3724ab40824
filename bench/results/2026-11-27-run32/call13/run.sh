#!/usr/bin/env bash
# Run 32, call 13 (kernels/NOTES.md "Run 32"): after the review (spread_row in spread.h,
# clang-format): the whole GPU suite and the spread defaults.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 120 $B/bench_kernels --compare --reps 10 --types f32 --variant default,skew-64x64w16-b4-g16k-p256-sp5 --shapes 81920x2049,16411x16411 > $L/f32.log 2>&1
timeout 120 $B/bench_kernels --compare --reps 10 --types u8 --variant default,nskew-256x256-t512-b2-n3-sweep-sp5 --shapes 327680x2500 > $L/u8.log 2>&1
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -12
tar czf $O/logs.tgz -C /tmp logs
awk '$3=="cand"{print $1, $2, $4, $6, $7, $9}' $L/f32.log $L/u8.log
echo "total ${SECONDS}s"
