#!/usr/bin/env bash
# Run 32, call 15 (kernels/NOTES.md "Run 32"): U8Tiles entry 3 with the spread, held out; tests.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
for r in 1 2; do
  timeout 150 $B/bench_kernels --compare --reps 10 --types u8 --variant default,narrow-256-t512-b2-sweep,narrow-256-t512-b2-sweep-sp5 --shapes 327680x7777,655360x6500,983040x6700 > $L/u8-r$r.log 2>&1
  echo "u8 r$r rc=$? (${SECONDS}s)"
done
timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackNarrow:CudaKernels.SpreadCandidates:CudaKernels.NarrowDefaults:CudaKernels.RandomLayoutsOutOfPlace:CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerRun32' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
tar czf $O/logs.tgz -C /tmp logs
for r in 1 2; do awk -v r=r$r '$3=="cand"{print r, $1, $2, $4, $7, $9}' $L/u8-r$r.log; done | sort -k3,3 -k4,4 -k1,1
echo "total ${SECONDS}s"
