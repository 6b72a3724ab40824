#!/usr/bin/env bash
# Run 42, call 4 (kernels/NOTES.md "Run 42"): the f32 rule in front of the TMA kernel held out
# (default / pre42 / Sgeam), the goal shapes, the whole suite in four shards, sanitize.sh, and
# end-to-end transposes through the engine. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs4; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
IN=9004x9004,8804x9604,12004x6004,6004x20004,16004x16004,11004x25004,2004x60004,19004x9004
G=16384x16384,32768x32768,20000x30000,16411x16411
for r in 1 2; do
  bk --reps 20 --types f32 --variant default,pre42 --shapes $IN > $L/in-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,pre42 --shapes 6004x6004 --batch 3 > $L/inb3-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,pre42 --shapes 7004x7004,24004x12004 > $L/out-r$r.log 2>&1
  for t in f32 f64 c128; do
    bk --reps 20 --types $t --variant default --shapes $G > $L/goals$t-r$r.log 2>&1
  done
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/*-r?.log > $L/table.txt
pack
tests/gpu/suite_shards.sh $B $L 4; echo "suite rc=$? (${SECONDS}s)"; pack
grep -h "HighBandwidthLines\|HighBandwidthDispatch" $L/suite-*.log
timeout 90 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
D=/dev/shm/x; mkdir -p $D
for c in float32:8004x16004:2GiB complex128:1411x1411:256MiB; do
  IFS=: read -r t sh gm <<< "$c"
  $B/xpose generate $D/a.h5:/m --shape $sh --dtype $t -f -q
  timeout 60 $B/xpose transpose $D/a.h5:/m $D/b.h5:/m --backend cuda --gpu-mem $gm --force > $L/e2e-$t-$sh.log 2>&1
  rc=$?
  timeout 60 $B/xpose verify $D/a.h5:/m $D/b.h5:/m >> $L/e2e-$t-$sh.log 2>&1
  echo "e2e $t $sh gpu-mem $gm: transpose rc=$rc verify rc=$? (${SECONDS}s): $(tail -1 $L/e2e-$t-$sh.log)"
  rm -f $D/a.h5 $D/b.h5
done
pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
