#!/usr/bin/env bash
# Run 34, call 8 (kernels/NOTES.md "Run 34"): an H200 only (off one it stops at once): the final
# code's suite and sanitizers, call 3's f64 TMA-load agenda, and f64 64 x 64 tiles of 16-byte
# words on 256-byte output rows at fresh shapes.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
grep -q H200 $L/gpu.txt || { echo "not an H200: nothing run"; exit 0; }
for r in 1 2; do
  $B/bench_kernels --compare --reps 20 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes 16386x16386,28002x18000,10000x25000,16400x16400,24008x16008,30000x20000,12002x36000 > $L/f64t-r$r.log 2>&1
  $B/bench_kernels --compare --reps 20 --batch 4 --types f64 --variant default,tmald-32x64,tmald-32x32 --shapes 6000x7000,6002x7000 > $L/f64t-b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-64x64w16-b2 --shapes 12288x12288,16384x24576,24576x16384,28672x28672,10240x40960,40960x10240 > $L/f64a-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|TMA entry" $L/suite.log | head -8; pack
timeout 150 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
grep -l -E "FAIL|mismatch" $L/f64*.log
echo "== f64 x memcpy: file shape candidate | r1 r2"
for r in 1 2; do for f in $L/f64*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $7}' $f; done; done \
 | sort -k1,1 -k2,2 -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
echo "total ${SECONDS}s"
