#!/usr/bin/env bash
# Run 37, call 5 (kernels/NOTES.md "Run 37"): the whole GPU suite on the new dispatch, then by the
# card: on an H200 the goal shapes, default against the entries' old kernels and cuBLAS; on an
# H100 sanitize.sh and call 1's small-size survey (f32 / f64 / c128 out of place, two rounds).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs5; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs5; }
bk() { timeout 200 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|TMA entry|Failure|Expected|Which is" $L/suite.log | head -20; pack
if grep -q H200 $L/gpu.txt; then
  for r in 1 2; do
    bk --reps 20 --types f32 --variant default,tile-64x64w8,notma --shapes 16384x16384,32768x32768,20000x30000,16411x16411,8192x8192,2048x2048 > $L/h200-f32-r$r.log 2>&1
    bk --reps 20 --types f64 --variant default,tile-32x64w8-b3 --shapes 16384x16384,32768x32768,20000x30000,16411x16411,8192x8192,2048x2048 > $L/h200-f64-r$r.log 2>&1
    echo "h200 round $r (${SECONDS}s)"; pack
  done
  for r in 1 2; do for f in $L/h200-*-r$r.log; do
    awk -v r=$r '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, r, $7}' $f; done; done \
   | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
  pack; cat $L/table.txt; echo "total ${SECONDS}s"; exit 0
fi
timeout 120 bash tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|== .*exit" $L/sanitize.log | head -12; pack
V4=default,skew-64x64w16-b4-cm-p256,tile-64x64w8,tile-32x32w4-any,tile-32x32w8-any,tile-32x32w16-any,tmald-64x32,tma-32x64
V8=default,tile-32x64w8-b3,tile-64x64w16-b2,skew-32x64w16-b4-cm,tile-32x32w8-any,tile-32x32w16-any,tmald-32x64,tmald-32x32
V16=default,tile-16x16,tile-16x16-t128,tile-32x16,skew-32x32-b4-cm,skew-16x64-b4,tile-16x16-any,tile-32x32-any,tmald-16x16
S1=512x512,1024x1024,1536x1536,2048x2048,3072x3072,4096x4096,500x500,700x700,1000x1000,1500x1500,2001x2001,3001x3001,4001x4001,700x2000,2000x700
for r in 1 2; do
  for t in 4:f32:$V4 8:f64:$V8 16:c128:$V16; do
    IFS=: read -r s ty v <<< "$t"
    warm
    bk --reps 100 --types $ty --variant $v --shapes $S1 > $L/$ty-b1-r$r.log 2>&1
    bk --reps 100 --batch 4 --types $ty --variant $v --shapes 700x700,512x512 > $L/$ty-b4-r$r.log 2>&1
    bk --reps 100 --batch 16 --types $ty --variant $v --shapes 256x256,300x300 > $L/$ty-b16-r$r.log 2>&1
  done
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for r in 1 2; do for f in $L/*-b*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
echo "total ${SECONDS}s"
