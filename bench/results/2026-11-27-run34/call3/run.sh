#!/usr/bin/env bash
# Run 34, call 3 (kernels/NOTES.md "Run 34"): the high-bandwidth TMA entries in the dispatch.
# Either card: the whole GPU suite and memcheck on HighBandwidthDispatch. H200: f64 TMA-load
# candidates against the default (the skewed kernel) on rows on 16 / 32 / 64 bytes, two rounds;
# f32 default against notma at two goal shapes. H100: call 1's H100 agenda (small-n in place).
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|tests ran|TMA entries" $L/suite.log | head -20; pack
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.HighBandwidthDispatch' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|PASSED|FAILED" $L/memcheck.log | head -3; pack
if grep -q H200 $L/gpu.txt; then
  echo "agenda: H200"
  S=16386x16386,28002x18000,10000x25000,16400x16400,24008x16008,30000x20000,12002x36000
  for r in 1 2; do
    $B/bench_kernels --compare --reps 20 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes $S > $L/f64-r$r.log 2>&1
    $B/bench_kernels --compare --reps 20 --batch 4 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes 6000x7000,6002x7000 > $L/f64-b4-r$r.log 2>&1
    echo "round $r (${SECONDS}s)"; pack
  done
  $B/bench_kernels --compare --reps 20 --types f32 --variant default,notma --shapes 20000x30000,16384x16384 > $L/goal-f32.log 2>&1
  echo "goal shapes (${SECONDS}s)"; pack
  grep -l -E "FAIL|mismatch" $L/*.log
  echo "== x memcpy: file shape candidate | r1 r2"
  for r in 1 2; do for f in $L/*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $7}' $f; done; done \
   | sort -k1,1 -k2,2 -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
  echo "== goal shapes, x memcpy"
  cat $L/goal-*.log | awk '($3=="cand"||$3=="cublas-geam"||$3=="cand-inplace")&&$9=="ok"{print $1, $2, $3, $4, $6, $7}'
else
  echo "agenda: H100"
  U8=default,tile-32w1-row; U16=default,tile-32w2-row; F32=default,tile-32w4-row
  for r in 1 2 3; do
    $B/bench_kernels --compare --reps 50 --types u8 --variant $U8 --shapes 900x900,1100x1100,1300x1300,1600x1600,1900x1900,2100x2100,2250x2250,2300x2300,2310x2310,2400x2400,2600x2600 > $L/u8-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 4 --types u8 --variant $U8 --shapes 900x900 > $L/u8-b4-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 2 --types u8 --variant $U8 --shapes 1300x1300,1600x1600 > $L/u8-b2-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --types u16 --variant $U16 --shapes 900x900,1100x1100,1300x1300,1400x1400,1450x1450,1536x1536,1537x1537,1600x1600,1700x1700,2000x2000 > $L/u16-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 2 --types u16 --variant $U16 --shapes 900x900,1100x1100 > $L/u16-b2-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 4 --types u16 --variant $U16 --shapes 700x700 > $L/u16-b4-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --types f32 --variant $F32 --shapes 500x500,650x650,777x777,900x900,1000x1000,1023x1023,1025x1025,1100x1100,1150x1150,1300x1300 > $L/f32-r$r.log 2>&1
    echo "round $r (${SECONDS}s)"; pack
  done
  grep -l -E "FAIL|mismatch" $L/*.log
  echo "== in place GB/s: file shape candidate | r1 r2 r3"
  for r in 1 2 3; do for f in $L/*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand-inplace"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
   | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
fi
pack
echo "total ${SECONDS}s"
