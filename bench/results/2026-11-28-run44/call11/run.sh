#!/usr/bin/env bash
# Run 44, call 11 (kernels/NOTES.md "Run 44"): u16 held out (the word kernel on 256-byte rows),
# a survey of larger u8 / u16 word tiles.
set -uo pipefail
source tests/gpu/call_env.sh 11
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types u16 --variant default,narrow-128-t512-b2-cm \
    --shapes 4096x4096,6144x6144,10240x10240,16384x8192,20480x12288,24576x24576,40960x8192,16392x16392,16411x16411 \
    > $L/u16-r$r.log 2>&1
  bk --types u16 --variant default,narrow-128-t512-b2-cm --shapes 4096x2048 --batch 3 \
    > $L/u16-b3-r$r.log 2>&1
  bk --types u16 --variant default,tile-128x128w16-t256 --shapes 16384x16384,8192x8192,32768x32768 \
    > $L/u16s-r$r.log 2>&1
  bk --types u8 --variant default,tile-256x256w16-t256 --shapes 16384x16384,8192x8192,32768x32768 \
    > $L/u8s-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/u16-r?.log $L/u16-b3-r?.log > $L/held.txt
bench/compare_table.sh --whole $L/u16s-r?.log > $L/survey-u16.txt
bench/compare_table.sh --whole $L/u8s-r?.log > $L/survey-u8.txt
pack; cat $L/held.txt $L/survey-u16.txt $L/survey-u8.txt; echo "total ${SECONDS}s"
