#!/usr/bin/env bash
# Run 33, call 13 (kernels/NOTES.md "Run 33"): the u8 / u16 small-n rule on held-out n and
# batches, new default against the old narrow kernels; the in-place tests; the sanitizers on
# InPlaceFewBlocks and SanitizerRun33.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs13; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs13; }
U8=default,narrow256-t1024-g16-seq-wedge,narrow256-t1024-g16-seq,tile-32w1-row
U16=default,narrow128-t512-b2-g8-seq-wedge,narrow128-t512-b2-g8-seq,tile-32w2-row
for r in 1 2; do
  $B/bench_kernels --compare --reps 50 --types u8 --variant $U8 --shapes 800x800,1200x1200,1800x1800,2200x2200,2500x2500,2700x2700,4001x4001 > $L/u8-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --types u16 --variant $U16 --shapes 800x800,1024x1024,1200x1200,1800x1800,1900x1900,2200x2200,4001x4001 > $L/u16-r$r.log 2>&1
  for b in 2 4; do
    $B/bench_kernels --compare --reps 50 --batch $b --types u8 --variant $U8 --shapes 1000x1000,1500x1500 > $L/u8-b$b-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch $b --types u16 --variant $U16 --shapes 700x700,1000x1000,1500x1500 > $L/u16-b$b-r$r.log 2>&1
  done
  echo "round $r (${SECONDS}s)"; pack
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlace*:CudaKernels.RandomLayoutsInPlace:CudaKernels.EveryVariantInPlace:CudaKernels.NarrowEdgePairs:CudaKernels.SanitizerRun33:CudaKernels.SanitizerRandomLayouts' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|entry" $L/tests.log | head -12; pack
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlaceFewBlocks:CudaKernels.SanitizerRun33' > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/san-$tool.log; pack
done
grep -l -E "FAIL|mismatch|ERROR" $L/u8*.log $L/u16*.log
echo "== in place GB/s: type shape | candidate r1 r2"
for r in 1 2; do for f in $L/u*-r$r.log; do awk -v r=$r '$3=="cand-inplace"&&$9=="ok"{print $1, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
echo "total ${SECONDS}s"
