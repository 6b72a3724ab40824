#!/usr/bin/env bash
# Run 42, call 1 (kernels/NOTES.md "Run 42"): the review commit 1579fbb on a GPU (the whole suite
# in four shards, sanitize.sh); run 12's copy ceiling (bench_copy_ceiling: plain copies, tile
# copies in place and permuted, block orders) on an H200 for the first time, beside the goal
# shapes' defaults and geam; a survey of f64 small sizes and c128 small sizes off 32 bytes.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs1; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.mem,clocks.max.sm --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs1; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
for r in 1 2; do
  timeout 200 $B/bench_copy_ceiling --mib 1024,4096 > $L/ceiling-r$r.log 2>&1
  echo "ceiling $r rc=$? (${SECONDS}s)"
  bk --reps 20 --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768 \
    > $L/goals-r$r.log 2>&1
  bk --reps 20 --types f64 --shapes 1201x1201,1501x1501,2001x2001,2451x2451,3001x3001 \
    --variant default,lines-32x64-x2-b8-cm,lines-64x32-x4-b8-cm,tile-32x32w8-any,tile-32x32w16-any,tile-32x64w8-b3 \
    > $L/f64small-r$r.log 2>&1
  bk --reps 20 --types c128 --shapes 1201x1201,1301x1301,1501x1501,1999x1999,2501x2501 \
    --variant default,lines-32x32-cm,lines-32x32-x2-b8-cm,lines-32x32-x4-b8-cm,tile-16x16-any-cm,tile-32x32-any-cm \
    > $L/c128small-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/goals-r?.log $L/f64small-r?.log $L/c128small-r?.log > $L/table.txt
pack
tests/gpu/suite_shards.sh $B $L 4; echo "suite rc=$? (${SECONDS}s)"; pack
timeout 90 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
grep -h -E 'memcpy|tiles|4 x 16B a thread, t256' $L/ceiling-r?.log | sort -s -k1,7
cat $L/table.txt
echo "total ${SECONDS}s"
