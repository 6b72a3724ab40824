#!/usr/bin/env bash
# Run 32, call 9 (kernels/NOTES.md "Run 32"): the spread on the narrow kernels in the dispatch,
# held-out shapes, tests, compute-sanitizer.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
export PATH=$PATH:/usr/local/cuda/bin
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk u8s-r$r --types u8 --variant default,nskew-256x256-t512-b2-n3-sweep --shapes 327680x2500,655360x777,983040x600,327680x2064,327000x2500
  bk u8w-r$r --types u8 --variant default,narrow-256-t512-b2-cm-eledge --shapes 327680x1536
  bk u16-r$r --types u16 --variant default,narrow-128-t512-b2-sweep --shapes 163840x2500,327680x777,491520x500,163840x1500,163000x2500
done
timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackNarrow:CudaKernels.SpreadCandidates:CudaKernels.NarrowDefaults:CudaKernels.RandomLayoutsOutOfPlace:CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerRun32' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
tar czf $O/logs.tgz -C /tmp logs
SANITIZE_FILTER='CudaKernels.SanitizerRun32' timeout 200 bash tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|^\[  (PASSED|FAILED) |Failure" $L/sanitize.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for f in $L/u8s-r*.log $L/u8w-r*.log $L/u16-r*.log; do
  r=$(basename $f .log); r=${r##*-}
  awk -v r=$r '$3=="cand"{print r, $1, $2, $4, $7, $9}' $f
done | sort -k2,2 -k3,3 -k4,4 -k1,1
echo "total ${SECONDS}s"
