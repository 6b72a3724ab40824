#!/usr/bin/env bash
# Run 32, call 3 (kernels/NOTES.md "Run 32"): spread groups on one-stack output pitches (f32
# class (c)), and f32's stagger variants.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SpreadCandidates:CudaKernels.StaggerCandidates' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk spread-f32-r$r --types f32 --variant default,skew-64x64w16-b4-g16k-p256-sp5,skew-64x64w16-b4-g16k-sp5,skew-64x64w16-b4-g16k-p256-sp10 --shapes 81920x2049,81920x3001,163840x1001,100001x5003
  bk spread-f64-r$r --types f64 --variant default,skew-32x64w16-b4-g16k,skew-32x64w16-b4-g16k-sp5 --shapes 40960x3001,100001x5003
  bk spread-c128-r$r --types c128 --variant default,skew-32x32-b4-g16k,skew-32x32-b4-g16k-sp5 --shapes 40960x1501
  bk stag-f32-r$r --types f32 --variant default,skew-64x64w16-b4-cm-stagc64,skew-64x64w16-b4-cm-p256-stagc32,skew-64x64w16-b4-cm-p256-stagc128 --shapes 9001x81920,20001x81920,30001x81920,14001x163840
done
tar czf $O/logs.tgz -C /tmp logs
echo "== round, type, shape, candidate, x memcpy, verified"
for f in $L/spread-*-r*.log $L/stag-*-r*.log; do
  r=$(basename $f .log); r=${r##*-}
  awk -v r=$r '$3=="cand"{print r, $1, $2, $4, $7, $9}' $f
done | sort -k2,2 -k3,3 -k4,4 -k1,1
echo "total ${SECONDS}s"
