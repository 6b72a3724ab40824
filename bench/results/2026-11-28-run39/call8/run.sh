#!/usr/bin/env bash
# Run 39, call 8 (kernels/NOTES.md "Run 39"): the f64 line-aligned rule (F64LinesOnHighBandwidth)
# on held-out shapes, default against "pre39"; its dispatch test; memcheck / racecheck over it.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs8; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs8; }
timeout 200 $B/xpose_gpu_tests --gtest_filter='*HighBandwidth*:*SmallTileWindows*:*EveryVariantOutOfPlace*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|line-aligned|Failure" $L/tests.log | head; pack
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
BIG=14001x14001,18003x18003,9001x28001,11001x19001,24001x6001
MID=2401x2401,2601x2601,2801x2801,3501x3501,5001x2003,7001x7001
for r in 1 2 3; do
  warm
  bk --reps 20 --types f64 --variant default,pre39 --shapes $BIG > $L/f64-big-r$r.log 2>&1
  bk --reps 100 --types f64 --variant default,pre39 --shapes $MID > $L/f64-mid-r$r.log 2>&1
  bk --reps 100 --batch 4 --types f64 --variant default,pre39 --shapes 1501x1501 > $L/f64-b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --print-limit 5 $B/bench_kernels --compare --reps 4 --types f64 --variant lines-64x64-x4-b6-cm,default --shapes 131x197,1501x1499 --batch 3 > $L/$tool-f64.log 2>&1
  echo "$tool f64 rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-f64.log) $(awk '$3=="cand"{print $2, $4, $9}' $L/$tool-f64.log | tr '\n' ' ')"
done
pack; echo "total ${SECONDS}s"
