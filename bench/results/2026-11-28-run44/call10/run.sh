#!/usr/bin/env bash
# Run 44, call 10 (kernels/NOTES.md "Run 44"): a survey of u8 / u16 out-of-place kernels on the
# H200.
set -uo pipefail
source tests/gpu/call_env.sh 10
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
S=16384x16384,32768x32768,8192x8192,12288x20480,16411x16411
for r in 1 2; do
  bk --types u8 --variant default,narrow-256-t1024-b1-cm,narrow-128-t256-b4-cm,narrow-256-t512-b2-cm,tile-128x128w16,rot-128x128-t512-b3-cm,tile-64x64w4-any \
    --shapes $S > $L/u8-r$r.log 2>&1
  bk --types u16 --variant default,tile-64x64w16,rot-128x128-t512-b3-cm,rot-128x128-t1024-b1-cm,narrow-128-t512-b2-cm-rot,tile-64x64w4-any,skew-64x64w16 \
    --shapes $S > $L/u16-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/u8-r?.log > $L/u8.txt
bench/compare_table.sh --whole $L/u16-r?.log > $L/u16.txt
pack; cat $L/u8.txt $L/u16.txt; echo "total ${SECONDS}s"
