#!/usr/bin/env bash
# Run 38, call 7 (kernels/NOTES.md "Run 38"): the small-size rules (f64 rows off 16 bytes, c128
# output rows off 32) on held-out shapes, default against "pre38"; the full GPU suite,
# sanitize.sh and memcheck over the kernels the new rules run.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs7; }
F8=901x901,1101x1101,1301x1301,701x1601,1601x701,1451x1451,651x651
F16=901x901,1101x1101,701x1501,1501x701,1051x1053,651x651,1301x1301
for r in 1 2 3 4; do
  timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --types f64 --variant default,pre38 --shapes $F8 > $L/f64-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 3 --types f64 --variant default,pre38 --shapes 601x601 > $L/f64b3-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --types c128 --variant default,pre38 --shapes $F16 > $L/c128-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 3 --types c128 --variant default,pre38 --shapes 701x701 > $L/c128b3-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
for v in f64:tile-64x64w8-any-cm f64:tile-32x32w8-any c128:tile-32x32-any-cm c128:tile-32x32-any; do
  IFS=: read -r ty n <<< "$v"
  timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $B/bench_kernels --compare --reps 4 --types $ty --variant $n --shapes 131x197,1001x1003 --batch 3 > $L/memcheck-$ty-$n.log 2>&1
  echo "memcheck $ty $n rc=$?: $(grep -E 'ERROR SUMMARY' $L/memcheck-$ty-$n.log) $(awk '$3=="cand"{print $2, $4, $9}' $L/memcheck-$ty-$n.log | tr '\n' ' ')"
done
timeout 120 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|many-tile|Failure" $L/suite.log | head -20; pack
echo "total ${SECONDS}s"
