#!/usr/bin/env bash
# Run 35, call 5 (kernels/NOTES.md "Run 35"): u8 / u16 out of place at small sizes, small-tile
# candidates against the default; EveryVariantOutOfPlace for the new candidates.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
S=500x500,700x700,1000x1000,1500x1500,2000x2000,3001x3001,1000x3000,3000x1000
V8=default,tile-128x128w16,narrow-128-t256-b4-cm,rot-128x128-t512-b3-cm,tile-32x32w1-any,tile-32x32w4-any,tile-64x64w4-any
V16=default,tile-64x64w16,narrow-128-t512-b2-cm,rot-128x128-t512-b3-cm,tile-32x32w2-any,tile-32x32w4-any,tile-64x64w4-any
for r in 1 2; do
  $B/bench_kernels --compare --reps 50 --types u8 --variant $V8 --shapes $S > $L/u8-b1-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types u8 --variant $V8 --shapes 700x700 > $L/u8-b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --types u16 --variant $V16 --shapes $S > $L/u16-b1-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types u16 --variant $V16 --shapes 700x700 > $L/u16-b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" $L/tests.log | head; pack
grep -l -E "FAIL|mismatch" $L/*.log
echo "== GB/s: file shape candidate | r1 r2 (memcpy first)"
for r in 1 2; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"&&$9=="ok")||$3=="memcpy"{print b, $2, ($3=="memcpy"?"_memcpy":$4), r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
pack
echo "total ${SECONDS}s"
