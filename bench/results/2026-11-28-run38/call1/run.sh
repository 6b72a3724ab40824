#!/usr/bin/env bash
# Run 38, call 1 (kernels/NOTES.md "Run 38"): cuBLAS geam's geometry as candidates (one element
# an access, output rows on any element, 64 x 64 / 32 x 32 tiles, row-major and down the tile
# columns) where rows are off 16 bytes or the matrix sits in L2; a survey, no dispatch change.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs1; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs1; }
timeout 150 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*TileGridPast65535*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head; pack
bk() { timeout 120 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
V4=default,tile-32x32w4-any,tile-32x32w4-any-cm,tile-64x64w4-any,tile-64x64w4-any-cm,tmald-64x32
V8=default,tile-32x32w8-any,tile-32x32w8-any-cm,tile-64x64w8-any,tile-64x64w8-any-cm
V16=default,tile-32x32-any,tile-32x32-any-cm,tile-16x16-any-cm,tile-16x16-any
# Large shapes, rows off 16 bytes (c128: off 32), two rounds of 20.
for r in 1 2; do
  for t in f32:$V4 f64:$V8 c128:$V16; do
    IFS=: read -r ty v <<< "$t"
    bk --reps 20 --types $ty --variant $v --shapes 16411x16411,12001x20003 > $L/$ty-big-r$r.log 2>&1
  done
  echo "big round $r (${SECONDS}s)"; pack
done
# Small shapes (L2-resident), four warmed rounds of 100.
S=1000x1000,1500x1500,2001x2001,3001x3001,700x2000,2000x700,1001x1001,1501x1501
for r in 1 2 3 4; do
  warm
  for t in f32:$V4 f64:$V8 c128:$V16; do
    IFS=: read -r ty v <<< "$t"
    bk --reps 100 --types $ty --variant $v --shapes $S > $L/$ty-small-r$r.log 2>&1
    bk --reps 100 --batch 4 --types $ty --variant $v --shapes 700x700 > $L/$ty-b4-r$r.log 2>&1
  done
  echo "small round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; cat $L/table.txt | grep -v " b4 " | awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' | head -150
echo "total ${SECONDS}s"
