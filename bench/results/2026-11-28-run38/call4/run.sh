#!/usr/bin/env bash
# Run 38, call 4 (kernels/NOTES.md "Run 38"): the many-tile rules for high-bandwidth devices on
# held-out shapes (default against "pre38", the list before them), the dispatch tests, and on an
# H100 the full GPU suite and the goal shapes.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs4; }
if grep -q H100 $L/gpu.txt; then
  timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
  echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|many-tile|Failure" $L/suite.log | head -20; pack
  for t in f32 f64 c128; do
    timeout 60 $B/bench_kernels --compare --types $t --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal-$t.log 2>&1
  done
  cat $L/goal-*.log | awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, $6, $7}'
  timeout 100 $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-64x64w8-any-cm --shapes 16411x16411,12001x20003,10007x30011 > $L/h100-f64.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 20 --types c128 --variant default,tile-32x32-any-cm --shapes 16411x16411,12001x20003,10007x30011,2201x2201 > $L/h100-c128.log 2>&1
  cat $L/h100-*.log | awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, $6, $7}'
  pack; echo "total ${SECONDS}s"; exit 0
fi
timeout 200 $B/xpose_gpu_tests --gtest_filter='*HighBandwidth*:*SmallTileWindows*:*EveryVariantOutOfPlace*:*RandomLayoutsOutOfPlace*:*LargerSquareAndRectangular*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|many-tile|Failure" $L/tests.log | head; pack
F8=14001x9001,5001x25001,11001x11001,6701x6701,6501x6501
F16=1701x1701,2801x1201,13001x17003,3501x3501,1401x1401,30011x7001
for r in 1 2 3; do
  timeout 150 $B/bench_kernels --compare --reps 30 --types f64 --variant default,pre38 --shapes $F8 > $L/f64-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 30 --batch 3 --types f64 --variant default,pre38 --shapes 5001x5001 > $L/f64b3-r$r.log 2>&1
  timeout 150 $B/bench_kernels --compare --reps 30 --types c128 --variant default,pre38 --shapes $F16 > $L/c128-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 50 --batch 5 --types c128 --variant default,pre38 --shapes 801x801 > $L/c128b5-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
