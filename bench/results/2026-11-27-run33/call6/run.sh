#!/usr/bin/env bash
# Run 33, call 6 (kernels/NOTES.md "Run 33"): the in-place small-n rule (FewBlocks) on held-out n
# and batches, new default against the old one's kernel; the in-place GPU tests; memcheck and
# racecheck on InPlaceFewBlocks.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs6; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs6; }
F32=default,rot128-t1024-g32-p256,rot64-t512-g4-b2-p256,tile-32w4-row
F64=default,strip4-32w8-t512-g64-b2-l128-p256s,tile-32w8-row
C128=default,multi2-32-g32-p256,tile-32-row
for r in 1 2; do
  $B/bench_kernels --compare --reps 50 --types f32 --variant $F32 --shapes 800x800,1200x1200,1700x1700,1800x1800,2200x2200,2700x2700,2900x2900,3500x3500 > $L/f32-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --types f64 --variant $F64 --shapes 800x800,1200x1200,1800x1800,2200x2200,2800x2800,3300x3300,3600x3600 > $L/f64-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --types c128 --variant $C128 --shapes 800x800,1200x1200,1800x1800,2200x2200,2800x2800,3300x3300 > $L/c128-r$r.log 2>&1
  for b in 2 4 8; do
    $B/bench_kernels --compare --reps 50 --batch $b --types f32 --variant $F32 --shapes 1000x1000,1500x1500 > $L/f32-b$b-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch $b --types f64 --variant $F64 --shapes 1000x1000,2000x2000 > $L/f64-b$b-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch $b --types c128 --variant $C128 --shapes 1000x1000,1500x1500 > $L/c128-b$b-r$r.log 2>&1
  done
  echo "round $r (${SECONDS}s)"; pack
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlace*:CudaKernels.RandomLayoutsInPlace:CudaKernels.EveryVariantInPlace:CudaKernels.SanitizerRandomLayouts:CudaKernels.MultiPairInPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|entry|dispatch" $L/tests.log | head -20; pack
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.InPlaceFewBlocks > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/san-$tool.log; pack
done
grep -l -E "FAIL|mismatch|ERROR" $L/*.log | grep -v san- | head
echo "== in place GB/s: type shape | candidate r1 r2"
for r in 1 2; do for f in $L/*-r$r.log; do awk -v r=$r '$3=="cand-inplace"&&$9=="ok"{print $1, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
echo "total ${SECONDS}s"
