#!/usr/bin/env bash
# Run 37, call 7 (kernels/NOTES.md "Run 37"), on an H100: the whole GPU suite and sanitize.sh on
# the final code, the goal snapshot, then call 1's small-size survey (one round of 100).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs7; }
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|TMA entry|Failure|Expected|Which is" $L/suite.log | head -20; pack
timeout 120 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
for t in f32 f64 c128; do
  timeout 60 $B/bench_kernels --compare --types $t --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal-$t.log 2>&1
done
echo "goal (${SECONDS}s)"; pack
cat $L/goal-*.log | awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, $6, $7}'
bk() { timeout 100 $B/bench_kernels --compare "$@"; }
V4=default,skew-64x64w16-b4-cm-p256,tile-64x64w8,tile-32x32w4-any,tile-32x32w16-any,tmald-64x32
V8=default,tile-32x64w8-b3,tile-64x64w16-b2,skew-32x64w16-b4-cm,tile-32x32w8-any,tile-32x32w16-any,tmald-32x64
V16=default,tile-16x16,tile-16x16-t128,skew-32x32-b4-cm,tile-16x16-any,tile-32x32-any,tmald-16x16
S1=512x512,1024x1024,2048x2048,3072x3072,4096x4096,500x500,1000x1000,1500x1500,2001x2001,3001x3001,4001x4001,700x2000
for t in f32:$V4 f64:$V8 c128:$V16; do
  IFS=: read -r ty v <<< "$t"
  timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1
  bk --reps 100 --types $ty --variant $v --shapes $S1 > $L/$ty-b1.log 2>&1
  bk --reps 100 --batch 4 --types $ty --variant $v --shapes 700x700,512x512 > $L/$ty-b4.log 2>&1
  echo "$ty (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-b*.log; do b=$(basename $f .log); awk -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, $6}' $f; done > $L/table.txt
awk '{k=$1" "$2; if($3=="default") d[k]=$4; if(!(k in best)||$4>best[k]){best[k]=$4; bn[k]=$3} if($3~/geam/&&$4>g[k]) g[k]=$4; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++){k=key[i]; printf "%s default %.0f best %s %.0f (%.2f) geam %.0f\n", k, d[k], bn[k], best[k], best[k]/d[k], g[k]}}' $L/table.txt
pack; echo "total ${SECONDS}s"
