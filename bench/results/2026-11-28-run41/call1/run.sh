#!/usr/bin/env bash
# Run 41, call 1 (kernels/NOTES.md "Run 41"): the review commit b88dddf on a GPU (the whole suite
# in four shards, sanitize.sh); then a survey of inputs whose rows are on 256 bytes at both ends
# ("fully aligned"), f64 first (run 40 left lines +6.3 % at 16384² but -2.8 % at 12288x16384),
# then c128 and f32 at the aligned goal shapes, two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs1; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs1; }
bk() { timeout 200 $B/bench_kernels --compare "$@"; }
F64S=16384x16384,12288x16384,16384x12288,12288x12288,8192x8192,8192x16384,16384x8192,20000x16384,16384x20000,10240x16384,14336x16384,16384x14336,18432x16384,16384x18432,12288x12800,4096x16384,16384x4096,12288x8192,8192x12288,20000x20000,10240x10240,14336x14336,32768x32768,24576x24576,32768x16384,16384x32768
for r in 1 2; do
  bk --reps 20 --types f64 --variant default,lines-64x64-x4-b6-cm,lines-64x64-x2-b6-cm,tile-64x64w8-any-cm --shapes $F64S > $L/f64-r$r.log 2>&1
  bk --reps 20 --types c128 --variant default,lines-32x32-x2-b8-cm,lines-32x32-x4-b8-cm,lines-32x64-x4-b6-cm,lines-64x32-x4-b6-cm,tile-32x32-any-cm --shapes 16384x16384,32768x32768,12288x16384,16384x12288,8192x8192 > $L/c128-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,lines-64x128-x4-b6-cm,lines-64x128-x2-b6-cm,tile-64x64w4-any-cm --shapes 16384x16384,32768x32768,12288x16384,16384x12288,8192x8192 > $L/f32-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6} $3=="memcpy"{print b, $2, "memcpy", r, $7}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
for i in 0 1 2 3; do
  GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 240 $B/xpose_gpu_tests > $L/suite-$i.log 2>&1 &
done
wait
for i in 0 1 2 3; do
  echo "shard $i: $(grep -cE '^\[       OK' $L/suite-$i.log) ok, $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $L/suite-$i.log | tr '\n' ' ')"
done
grep -hE "^\[  FAILED|Failure" $L/suite-*.log | head
echo "suite ok total: $(cat $L/suite-*.log | grep -cE '^\[       OK'), skipped: $(cat $L/suite-*.log | grep -cE '^\[  SKIPPED \] [A-Z]') (${SECONDS}s)"
pack
timeout 200 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|== .*exit" $L/sanitize.log; pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
