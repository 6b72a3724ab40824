#!/usr/bin/env bash
# Run 38, call 6 (kernels/NOTES.md "Run 38"), on an H100: the full GPU suite, memcheck over the
# two new library kernels, the goal shapes, the many-tile candidates at large shapes (the rule
# does not run on H100s), and small c128 / f64 matrices on rows off 32 / 16 bytes.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs6; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs6; }
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|many-tile|Failure" $L/suite.log | head -20; pack
for v in f64:tile-64x64w8-any-cm c128:tile-32x32-any-cm; do
  IFS=: read -r ty n <<< "$v"
  timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $B/bench_kernels --compare --reps 1 --types $ty --variant $n --shapes 131x197,1001x1003 --batch 3 > $L/memcheck-$ty.log 2>&1
  echo "memcheck $ty rc=$?: $(grep -E 'ERROR SUMMARY' $L/memcheck-$ty.log) $(awk '$3=="cand"{print $4, $9}' $L/memcheck-$ty.log | tr '\n' ' ')"
done
pack
for t in f32 f64 c128; do
  timeout 60 $B/bench_kernels --compare --types $t --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal-$t.log 2>&1
done
cat $L/goal-*.log | awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, $6, $7}'; pack
timeout 100 $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-64x64w8-any-cm --shapes 16411x16411,12001x20003,10007x30011 > $L/big-f64.log 2>&1
timeout 100 $B/bench_kernels --compare --reps 20 --types c128 --variant default,tile-32x32-any-cm --shapes 16411x16411,12001x20003,10007x30011,2201x2201 > $L/big-c128.log 2>&1
cat $L/big-*.log | awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, $6, $7}'; pack
S16=1001x1001,801x801,1201x1201,601x601,1401x1401,1001x1601,1601x1001,1501x1501
S8=1001x1001,801x801,1201x1201,1501x1501,2001x2001,1201x801
for r in 1 2 3; do
  timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --types c128 --variant default,tile-32x32-any,tile-32x32-any-cm,tile-16x16-any --shapes $S16 > $L/c128-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 4 --types c128 --variant default,tile-32x32-any,tile-32x32-any-cm,tile-16x16-any --shapes 501x501 > $L/c128b4-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --types f64 --variant default,tile-32x32w8-any,tile-32x32w8-any-cm --shapes $S8 > $L/f64-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 4 --types f64 --variant default,tile-32x32w8-any,tile-32x32w8-any-cm --shapes 501x501 > $L/f64b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
