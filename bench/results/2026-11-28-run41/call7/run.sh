#!/usr/bin/env bash
# Run 41, call 7 (kernels/NOTES.md "Run 41"): the final code on a GPU: goal snapshot, the whole
# suite in four shards, sanitize.sh, end-to-end transposes through the GPU.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs7; }
S=16384x16384,32768x32768,20000x30000,16411x16411
for r in 1 2; do
  timeout 100 $B/bench_kernels --compare --reps 20 --types f32,f64,c128 --variant default --shapes $S > $L/goals-r$r.log 2>&1
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/goals-r?.log; do r=${f##*-r}; r=${r%.log}; awk -v r=$r '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, r, $6, $7}' $f; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 > $L/table.txt
pack
for i in 0 1 2 3; do
  GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 240 $B/xpose_gpu_tests > $L/suite-$i.log 2>&1 &
done
wait
for i in 0 1 2 3; do
  echo "shard $i: $(grep -cE '^\[       OK' $L/suite-$i.log) ok, $(grep -E '^\[  (PASSED|FAILED) ' $L/suite-$i.log | tr '\n' ' ')"
done
grep -hE "^\[  FAILED|Failure" $L/suite-*.log | head
echo "suite ok total: $(cat $L/suite-*.log | grep -cE '^\[       OK') (${SECONDS}s)"
pack
timeout 200 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|== .*exit" $L/sanitize.log; pack
D=/dev/shm/x; mkdir -p $D
for c in float64:8192x8192:2GiB float32:32768x4096:2GiB complex128:3001x2003:64MiB float64:2001x2401:32MiB; do
  IFS=: read -r t sh gm <<< "$c"
  $B/xpose generate $D/a.h5:/m --shape $sh --dtype $t -f -q
  timeout 60 $B/xpose transpose $D/a.h5:/m $D/b.h5:/m --backend cuda --gpu-mem $gm --force > $L/e2e-$t-$sh.log 2>&1
  rc=$?
  timeout 60 $B/xpose verify $D/a.h5:/m $D/b.h5:/m >> $L/e2e-$t-$sh.log 2>&1
  echo "e2e $t $sh gpu-mem $gm: transpose rc=$rc verify rc=$? (${SECONDS}s): $(tail -1 $L/e2e-$t-$sh.log)"
  rm -f $D/a.h5 $D/b.h5
done
pack
cat $L/table.txt
echo "total ${SECONDS}s"
