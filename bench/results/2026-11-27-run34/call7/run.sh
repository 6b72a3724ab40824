#!/usr/bin/env bash
# Run 34, call 7 (kernels/NOTES.md "Run 34"): on an H200, call 5's script (the final code's H200
# record and call 3's f64 TMA-load agenda); on any other card only the out-of-place dispatch
# tests on the final code (HighBandwidthTma now asks the layout before the device).
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
if ! grep -q H200 $L/gpu.txt; then
  timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernelArguments.*:CudaKernels.HighBandwidthDispatch:CudaKernels.RandomLayoutsOutOfPlace:CudaKernels.OneStackPitch:CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
  echo "not an H200: tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|TMA entry" $L/tests.log | head; pack; exit 0
fi
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|TMA entry" $L/suite.log | head -8; pack
timeout 150 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
for t in f32 f64 c128; do
  $B/bench_kernels --compare --types $t --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal-$t.log 2>&1
done
echo "goal (${SECONDS}s)"; pack
if grep -q H200 $L/gpu.txt; then
  echo "agenda: H200"
  S=16386x16386,28002x18000,10000x25000,16400x16400,24008x16008,30000x20000,12002x36000
  for r in 1 2; do
    $B/bench_kernels --compare --reps 20 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes $S > $L/f64-r$r.log 2>&1
    $B/bench_kernels --compare --reps 20 --batch 4 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes 6000x7000,6002x7000 > $L/f64-b4-r$r.log 2>&1
    echo "f64 round $r (${SECONDS}s)"; pack
  done
  $B/bench_kernels --compare --reps 20 --types f32 --variant default,notma --shapes 20000x30000,16384x16384 > $L/f32-notma.log 2>&1
fi
timeout 150 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 1 --mpiexec "mpirun --oversubscribe --bind-to none" \
  --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli.log 2>&1
echo "cli rc=$? (${SECONDS}s)"; tail -3 $L/cli.log; pack
grep -l -E "FAIL|mismatch" $L/goal-*.log $L/f64*.log $L/f32*.log 2>/dev/null
echo "== goal shapes: type shape kernel detail GB/s x-memcpy"
cat $L/goal-*.log | awk '($3=="cand"||$3=="cublas-geam"||$3=="cand-inplace"||$3=="memcpy")&&$9=="ok"{print $1, $2, $3, $4, $6, $7}'
if grep -q H200 $L/gpu.txt; then
  echo "== f64 x memcpy: file shape candidate | r1 r2"
  for r in 1 2; do for f in $L/f64*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $7}' $f; done; done \
   | sort -k1,1 -k2,2 -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
  awk '$3=="cand"&&$9=="ok"{print $1, $2, $4, $6, $7}' $L/f32-notma.log
fi
echo "total ${SECONDS}s"
