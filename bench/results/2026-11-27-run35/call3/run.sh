#!/usr/bin/env bash
# Run 35, call 3 (kernels/NOTES.md "Run 35"): u16 in place, the 0.3-block rule on fresh n and
# batches; then the whole GPU suite and memcheck on InPlaceFewBlocks.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
V=default,narrow128-t512-b2-g8-seq-wedge,narrow128-t512-b2-g8-seq,tile-32w2-row
for r in 1 2 3; do
  $B/bench_kernels --compare --reps 50 --types u16 --variant $V --shapes 520x520,600x600,650x650,750x750,790x790,850x850,950x950,980x980,1010x1010,1020x1020,1030x1030,1150x1150 > $L/u16-b1-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 2 --types u16 --variant $V --shapes 500x500,600x600,640x640,750x750 > $L/u16-b2-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 3 --types u16 --variant $V --shapes 450x450,600x600 > $L/u16-b3-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types u16 --variant $V --shapes 300x300 > $L/u16-b4-r$r.log 2>&1
  echo "u16 round $r (${SECONDS}s)"; pack
done
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran|in place, (1|2)-byte" $L/suite.log | head -20; pack
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.InPlaceFewBlocks' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY" $L/memcheck.log | head -2; pack
grep -l -E "FAIL|mismatch" $L/*.log
echo "== u16 in place GB/s: file shape candidate | r1 r2 r3"
for r in 1 2 3; do for f in $L/u16-*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand-inplace"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
pack
echo "total ${SECONDS}s"
