#!/usr/bin/env bash
# Run 33, call 10 (kernels/NOTES.md "Run 33"): f32 in place, the rotated kernels with guarded edge
# pairs (-fe) against the default (128-tile rotated, edge pairs element by element) and the small
# kernels, small to large n, two rounds; the in-place tests and the sanitizers on SanitizerRun33.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs10; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs10; }
V=default,rot128-t1024-g32-p256-fe,rot64-t512-g4-b2-p256,rot64-t512-g4-b2-p256-fe,tile-32w4-row
S=700x700,1000x1000,1200x1200,1500x1500,1700x1700,2000x2000,2500x2500,2900x2900,3001x3001,4001x4001,6007x6007,10007x10007
for r in 1 2; do
  $B/bench_kernels --compare --reps 50 --types f32 --variant $V --shapes $S > $L/small-r$r.log 2>&1
  $B/bench_kernels --compare --reps 20 --types f32 --variant default,rot128-t1024-g32-p256-fe --shapes 16411x16411,16500x16500,24577x24577,32749x32749 > $L/large-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types f32 --variant $V --shapes 1000x1000,1500x1500 > $L/b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.RandomLayoutsInPlace:CudaKernels.SanitizerRun33:CudaKernels.InPlace*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head -8; pack
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.SanitizerRun33 > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/san-$tool.log; pack
done
grep -l -E "FAIL|mismatch|ERROR" $L/small-*.log $L/large-*.log $L/b4-*.log
echo "== f32 in place GB/s: shape | candidate r1 r2"
for r in 1 2; do for f in $L/small-r$r.log $L/large-r$r.log $L/b4-r$r.log; do awk -v r=$r '$3=="cand-inplace"&&$9=="ok"{print $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2 -k3,3 | awk '{k=$1" "$2; v[k]=v[k]" "$4; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
echo "total ${SECONDS}s"
