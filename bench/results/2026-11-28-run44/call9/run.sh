#!/usr/bin/env bash
# Run 44, call 9 (kernels/NOTES.md "Run 44"): the record on an H200: bench_kernels' full table
# with its CSV, then the 131072² f32 in-place transpose (--huge-only).
set -uo pipefail
source tests/gpu/call_env.sh 9
timeout 250 $B/bench_kernels --csv $L/kernels.csv > $L/bench.log 2>&1
echo "bench rc=$? (${SECONDS}s)"; pack
timeout 200 $B/bench_kernels --huge-only > $L/huge.log 2>&1
echo "huge rc=$? (${SECONDS}s)"; pack
grep -c -E "FAIL|mismatch|ERROR" $L/bench.log $L/huge.log
sed -n '/^# summary/,$p' $L/bench.log | head -40
tail -8 $L/huge.log
echo "total ${SECONDS}s"
