#!/usr/bin/env bash
# Run 44, call 12 (kernels/NOTES.md "Run 44"): u16 held out (128 x 128 word tiles), a u8 survey,
# the record table, the whole suite in four shards and sanitize.sh.
set -uo pipefail
source tests/gpu/call_env.sh 12
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types u16 --variant default,tile-64x64w16 \
    --shapes 3072x3072,5120x5120,12288x12288,14336x10240,28672x28672,49152x4096,2048x2048,16392x16392,16411x16411 \
    > $L/u16-r$r.log 2>&1
  bk --types u16 --variant default,tile-64x64w16 --shapes 2048x1024,1024x1024 --batch 4 \
    > $L/u16-b4-r$r.log 2>&1
  bk --types u8 --variant default,tile-128x128w8-t256 --shapes 8192x8192,16384x16384,32768x32768 \
    > $L/u8s-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/u16-r?.log $L/u16-b4-r?.log > $L/held.txt
bench/compare_table.sh --whole $L/u8s-r?.log > $L/survey-u8.txt
pack; cat $L/held.txt $L/survey-u8.txt
timeout 250 $B/bench_kernels --csv $L/kernels.csv > $L/bench.log 2>&1
echo "bench rc=$? (${SECONDS}s)"; sed -n '/^# summary/,$p' $L/bench.log | head -20; pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1
echo "suite+sanitize rc=$? (${SECONDS}s)"; tail -3 $L/device_run.txt; pack
echo "total ${SECONDS}s"
