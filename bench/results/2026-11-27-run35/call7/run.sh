#!/usr/bin/env bash
# Run 35, call 7 (kernels/NOTES.md "Run 35"): u8 / u16 out of place, the few-tiles rule on fresh
# shapes; the whole GPU suite; memcheck on OutOfPlaceFewTiles and InPlaceFewBlocks.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs7; }
V8=default,nskew-256x256-t512-b2-n3-cm,narrow-128-t256-b4-cm
V16=default,nskew-128x256-t512-b2-n3-sweep,narrow-128-t512-b2-cm
for r in 1 2 3; do
  $B/bench_kernels --compare --reps 30 --types u8 --variant $V8 --shapes 1200x1200,1800x1800,2500x2500,3300x3300,3500x3500,2200x3300,1100x6000,6000x1100,2400x2400,1600x2400,3700x3700,3000x5000 > $L/u8-b1-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 3 --types u8 --variant $V8 --shapes 1500x1500 > $L/u8-b3-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 5 --types u8 --variant $V8 --shapes 900x900 > $L/u8-b5-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 4 --types u8 --variant $V8 --shapes 2000x2000 > $L/u8-b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --types u16 --variant $V16 --shapes 1201x1201,1801x1801,2501x2501,3301x3301,3501x3501,2201x3301,1101x6001,6001x1101,3701x3701,3001x5001 > $L/u16-b1-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 3 --types u16 --variant $V16 --shapes 1501x1501 > $L/u16-b3-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 5 --types u16 --variant $V16 --shapes 901x901 > $L/u16-b5-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 2 --types u16 --variant $V16 --shapes 3001x3001 > $L/u16-b2-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|out of place, (1|2)-byte|no random case" $L/suite.log | head -20; pack
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OutOfPlaceFewTiles:CudaKernels.InPlaceFewBlocks' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY" $L/memcheck.log | head -2; pack
grep -l -E "FAIL|mismatch" $L/*.log
echo "== out of place GB/s: file shape candidate | r1 r2 r3"
for r in 1 2 3; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
pack
echo "total ${SECONDS}s"
