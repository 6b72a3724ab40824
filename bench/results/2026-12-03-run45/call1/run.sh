#!/usr/bin/env bash
# Run 45, call 1 (kernels/NOTES.md "Run 45"): the review commit of runs 43-44 (18b867b, never run
# on a GPU) and everything after it, on an H200: the whole GPU suite in four shards and
# sanitize.sh; three end-to-end transposes through the engine; the record table; then the H100
# survey script (bench/results/2026-11-28-run41/h100-survey/run.sh, never run) as a dry run, so
# that the first session with an H100 finds it working.
set -uo pipefail
source tests/gpu/call_env.sh 1
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1
echo "suite+sanitize rc=$? (${SECONDS}s)"; grep -E "^shard|^suite|SUMMARY|^== .*exit" $L/device_run.txt; pack
tests/gpu/engine_e2e.sh $B $L float32:16411x16411:1GiB float64:12288x12288:1GiB \
  complex128:3001x2003:256MiB > $L/e2e.txt 2>&1
echo "e2e rc=$? (${SECONDS}s)"; cat $L/e2e.txt; pack
timeout 250 $B/bench_kernels --csv $L/kernels.csv > $L/bench.log 2>&1
echo "bench rc=$? (${SECONDS}s)"; pack
OUT=$O/h100 timeout 200 bash bench/results/2026-11-28-run41/h100-survey/run.sh > $L/h100-dry.txt 2>&1
echo "h100 survey dry run rc=$? (${SECONDS}s)"; tail -40 $L/h100-dry.txt | cut -c1-160; pack
sed -n '/^# summary/,$p' $L/bench.log | head -40
echo "total ${SECONDS}s"
