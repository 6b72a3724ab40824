#!/usr/bin/env bash
# Run 34, call 4 (kernels/NOTES.md "Run 34"): f32's small-n in-place rule on fresh n and
# batches, the in-place tests and sanitizers; on an H200 also call 3's f64 TMA-load agenda.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
F32=default,rot128-t1024-g32-p256-fe
for r in 1 2 3; do
  $B/bench_kernels --compare --reps 50 --types f32 --variant $F32 --shapes 300x300,420x420,555x555,700x700,850x850,960x960,1010x1010 > $L/f32-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 2 --types f32 --variant $F32 --shapes 400x400,700x700 > $L/f32-b2-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 3 --types f32 --variant $F32 --shapes 300x300,600x600 > $L/f32-b3-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlace*:CudaKernels.RandomLayoutsInPlace:CudaKernels.EveryVariantInPlace:CudaKernels.SanitizerRun33' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|4-byte elements" $L/tests.log | head -12; pack
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlaceFewBlocks' > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/san-$tool.log; pack
done
if grep -q H200 $L/gpu.txt; then
  echo "agenda: H200"
  S=16386x16386,28002x18000,10000x25000,16400x16400,24008x16008,30000x20000,12002x36000
  for r in 1 2; do
    $B/bench_kernels --compare --reps 20 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes $S > $L/f64-r$r.log 2>&1
    $B/bench_kernels --compare --reps 20 --batch 4 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes 6000x7000,6002x7000 > $L/f64-b4-r$r.log 2>&1
    echo "f64 round $r (${SECONDS}s)"; pack
  done
  $B/bench_kernels --compare --reps 20 --types f32 --variant default,notma --shapes 20000x30000,16384x16384 > $L/goal-f32.log 2>&1
  echo "== f64 x memcpy: file shape candidate | r1 r2"
  for r in 1 2; do for f in $L/f64*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $7}' $f; done; done \
   | sort -k1,1 -k2,2 -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
  awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $3, $4, $6, $7}' $L/goal-f32.log
fi
grep -l -E "FAIL|mismatch" $L/*.log
echo "== f32 in place GB/s: file shape candidate | r1 r2 r3"
for r in 1 2 3; do for f in $L/f32*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand-inplace"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
pack
echo "total ${SECONDS}s"
