#!/usr/bin/env bash
# Run 39, call 5 (kernels/NOTES.md "Run 39"): the f32 line-aligned rule (F32LinesOnHighBandwidth)
# on held-out shapes, default against "pre39"; memcheck / racecheck over the lines kernel;
# sanitize.sh; the whole GPU suite.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs5; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs5; }
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
BIG=14001x14001,18003x18003,24001x12001,9001x40001,27001x15001,20001x20001,40001x10001
MID=1101x1101,1301x1301,2201x2201,3501x3501,5001x2003,1601x3001
for r in 1 2 3; do
  warm
  bk --reps 20 --types f32 --variant default,pre39 --shapes $BIG > $L/f32-big-r$r.log 2>&1
  bk --reps 100 --types f32 --variant default,pre39 --shapes $MID > $L/f32-mid-r$r.log 2>&1
  bk --reps 100 --batch 4 --types f32 --variant default,pre39 --shapes 1001x1001 > $L/f32-b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
for tool in memcheck racecheck; do
  for n in lines-64x128-x4-b6-cm default; do
    timeout 90 compute-sanitizer --tool $tool --print-limit 5 $B/bench_kernels --compare --reps 4 --types f32 --variant $n --shapes 131x197,1201x1203 --batch 3 > $L/$tool-$n.log 2>&1
    echo "$tool $n rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-$n.log) $(awk '$3=="cand"{print $2, $4, $9}' $L/$tool-$n.log | tr '\n' ' ')"
  done
done
for ty in f64:lines-64x64-cm c128:lines-32x32-cm; do
  IFS=: read -r t n <<< "$ty"
  timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $B/bench_kernels --compare --reps 4 --types $t --variant $n --shapes 131x197,1001x1003 --batch 3 > $L/memcheck-$t-$n.log 2>&1
  echo "memcheck $t $n rc=$?: $(grep -E 'ERROR SUMMARY' $L/memcheck-$t-$n.log)"
done
pack
timeout 150 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|line-aligned|many-tile|Failure" $L/suite.log | head -20; pack
echo "total ${SECONDS}s"
