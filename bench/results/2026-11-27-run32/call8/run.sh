#!/usr/bin/env bash
# Run 32, call 8 (kernels/NOTES.md "Run 32"): the spread on the narrow kernels' sweeps (u8 / u16
# output rows on one stack).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SpreadCandidates:CudaKernels.SanitizerRun32' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk u8s-r$r --types u8 --variant default,nskew-256x256-t512-b2-n3-sweep-sp5 --shapes 327680x2049,327680x3000,655360x1001,327000x2049,327000x3000
  bk u8w-r$r --types u8 --variant default,narrow-256-t512-b2-sweep-eledge,narrow-256-t512-b2-sweep-eledge-sp5 --shapes 327680x4096
  bk u16-r$r --types u16 --variant default,narrow-128-t512-b2-sweep-sp5 --shapes 163840x2049,327680x1001,163840x3000,163000x2049
done
tar czf $O/logs.tgz -C /tmp logs
for f in $L/u8s-r*.log $L/u8w-r*.log $L/u16-r*.log; do
  r=$(basename $f .log); r=${r##*-}
  awk -v r=$r '$3=="cand"{print r, $1, $2, $4, $7, $9}' $f
done | sort -k2,2 -k3,3 -k4,4 -k1,1
echo "total ${SECONDS}s"
