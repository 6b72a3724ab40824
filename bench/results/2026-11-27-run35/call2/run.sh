#!/usr/bin/env bash
# Run 35, call 2 (kernels/NOTES.md "Run 35"): u8 in place, the 0.25-block threshold on fresh n
# and batches; the in-place tests and memcheck on InPlaceFewBlocks.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
V=default,narrow256-t1024-g16-seq-wedge,narrow256-t1024-g16-seq,tile-32w1-row
for r in 1 2 3; do
  $B/bench_kernels --compare --reps 50 --types u8 --variant $V --shapes 1560x1560,1620x1620,1680x1680,1750x1750,1790x1790,1810x1810,1850x1850 > $L/u8-b1-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 2 --types u8 --variant $V --shapes 1050x1050 > $L/u8-b2-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 3 --types u8 --variant $V --shapes 850x850 > $L/u8-b3-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types u8 --variant $V --shapes 850x850 > $L/u8-b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 5 --types u8 --variant $V --shapes 650x650 > $L/u8-b5-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 9 --types u8 --variant $V --shapes 450x450 > $L/u8-b9-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 11 --types u8 --variant $V --shapes 450x450 > $L/u8-b11-r$r.log 2>&1
  echo "u8 round $r (${SECONDS}s)"; pack
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlace*:CudaKernels.RandomLayoutsInPlace:CudaKernels.SanitizerRun33:CudaKernels.NarrowEdgePairs' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|in place, 1-byte" $L/tests.log | head -20; pack
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlaceFewBlocks' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY" $L/memcheck.log | head -2; pack
grep -l -E "FAIL|mismatch" $L/*.log
echo "== u8 in place GB/s: file shape candidate | r1 r2 r3"
for r in 1 2 3; do for f in $L/u8-*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand-inplace"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
pack
echo "total ${SECONDS}s"
