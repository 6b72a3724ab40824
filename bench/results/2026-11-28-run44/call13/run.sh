#!/usr/bin/env bash
# Run 44, call 13 (kernels/NOTES.md "Run 44"): u16 held out (128 x 128 word tiles from 16 an SM),
# then the whole suite in four shards and sanitize.sh.
set -uo pipefail
source tests/gpu/call_env.sh 13
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types u16 --variant default,tile-64x64w16 \
    --shapes 6144x6144,7168x7168,10240x10240,20480x12288,24576x8192,5120x5120,4096x4096,3072x3072 \
    > $L/u16-r$r.log 2>&1
  bk --types u16 --variant default,tile-64x64w16 --shapes 4096x4096 --batch 4 > $L/u16-b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/u16-r?.log $L/u16-b4-r?.log > $L/held.txt
pack; cat $L/held.txt
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1
echo "suite+sanitize rc=$? (${SECONDS}s)"; tail -3 $L/device_run.txt; pack
echo "total ${SECONDS}s"
