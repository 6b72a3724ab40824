#!/usr/bin/env bash
# Run 32, call 14 (kernels/NOTES.md "Run 32"): the u8 256-tile kernel on mostly whole tiles,
# one-stack output pitches, plain sweeps against spread sweeps.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SpreadCandidates:CudaKernels.SanitizerRun32' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
for r in 1 2; do
  timeout 150 $B/bench_kernels --compare --reps 10 --types u8 --variant default,narrow-256-t512-b2-sweep,narrow-256-t512-b2-sweep-sp5 --shapes 327680x6500,327680x9999,655360x7001,327000x6500 > $L/u8-r$r.log 2>&1
  echo "u8 r$r rc=$? (${SECONDS}s)"
done
tar czf $O/logs.tgz -C /tmp logs
for r in 1 2; do awk -v r=r$r '$3=="cand"{print r, $1, $2, $4, $7, $9}' $L/u8-r$r.log; done | sort -k3,3 -k4,4 -k1,1
echo "total ${SECONDS}s"
