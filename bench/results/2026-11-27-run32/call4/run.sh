#!/usr/bin/env bash
# Run 32, call 4 (kernels/NOTES.md "Run 32"): spread groups in the library, held-out shapes.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 250 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackPitch:CudaKernels.SpreadCandidates:CudaKernels.RandomLayoutsOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk f32g-r$r --types f32 --variant default,skew-64x64w16-b4-g16k-p256,skew-64x64w16-b4-g16k-p256-sp5 --shapes 81920x2051,163840x1501,245760x1003
  bk f32t-r$r --types f32 --variant default,tile-64x64w8,skew-64x64w16-b4-g16k-p256-sp5 --shapes 81920x2050,81920x4098
  bk f32b-r$r --types f32 --variant default,skew-64x64w16-b4-cm --shapes 81920x2080
  bk f64-r$r --types f64 --variant default,skew-32x64w16-b4-cm,skew-32x64w16-b4-g16k-sp5 --shapes 81920x2001,40960x5001,122880x1001,40960x4096
  bk c128-r$r --types c128 --variant default,skew-32x32-b4-cm,skew-32x32-b4-g16k-sp5 --shapes 40960x1001,61440x1503,81920x777,40960x2048
done
tar czf $O/logs.tgz -C /tmp logs
echo "== round, type, shape, candidate, x memcpy, verified"
for f in $L/f32g-r*.log $L/f32t-r*.log $L/f32b-r*.log $L/f64-r*.log $L/c128-r*.log; do
  r=$(basename $f .log); r=${r##*-}
  awk -v r=$r '$3=="cand"{print r, $1, $2, $4, $7, $9}' $f
done | sort -k2,2 -k3,3 -k4,4 -k1,1
echo "total ${SECONDS}s"
