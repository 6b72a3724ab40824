#!/usr/bin/env bash
# Run 35, call 1 (kernels/NOTES.md "Run 35"): u8 in place at small n, the 0.2-block rule on fresh
# n and batches (either card), then the whole GPU suite and memcheck / racecheck on
# InPlaceFewBlocks. On an H200 first: run 34's call 8 agenda (f64 TMA-load, f64 256-byte rows).
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
if grep -q H200 $L/gpu.txt; then
  echo "agenda: H200 first"
  for r in 1 2; do
    $B/bench_kernels --compare --reps 20 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes 16386x16386,28002x18000,10000x25000,16400x16400,24008x16008,30000x20000,12002x36000 > $L/h200-f64t-r$r.log 2>&1
    $B/bench_kernels --compare --reps 20 --batch 4 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes 6000x7000,6002x7000 > $L/h200-f64t-b4-r$r.log 2>&1
    $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-64x64w16-b2 --shapes 12288x12288,16384x24576,24576x16384,28672x28672,10240x40960,40960x10240 > $L/h200-f64a-r$r.log 2>&1
    echo "H200 round $r (${SECONDS}s)"; pack
  done
fi
V=default,narrow256-t1024-g16-seq-wedge,narrow256-t1024-g16-seq,tile-32w1-row
for r in 1 2 3; do
  $B/bench_kernels --compare --reps 50 --types u8 --variant $V --shapes 550x550,750x750,950x950,1150x1150,1250x1250,1290x1290,1350x1350,1400x1400,1450x1450,1530x1530,1550x1550,1700x1700 > $L/u8-b1-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 2 --types u8 --variant $V --shapes 950x950,1100x1100 > $L/u8-b2-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 3 --types u8 --variant $V --shapes 600x600,800x800 > $L/u8-b3-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types u8 --variant $V --shapes 500x500,700x700 > $L/u8-b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 5 --types u8 --variant $V --shapes 700x700 > $L/u8-b5-r$r.log 2>&1
  echo "u8 round $r (${SECONDS}s)"; pack
done
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|tests ran|in place, 1-byte" $L/suite.log | head -20; pack
for t in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlaceFewBlocks' > $L/$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/$t.log | head -2; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
if grep -q H200 $L/gpu.txt; then
  echo "== H200 f64 x memcpy: file shape candidate | r1 r2"
  for r in 1 2; do for f in $L/h200-*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $7}' $f; done; done \
   | sort -k1,1 -k2,2 -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
fi
echo "== u8 in place GB/s: file shape candidate | r1 r2 r3"
for r in 1 2 3; do for f in $L/u8-*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand-inplace"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
pack
echo "total ${SECONDS}s"
