#!/usr/bin/env bash
# Run 44, call 5 (kernels/NOTES.md "Run 44"): the final code: the goal snapshot (two rounds of
# 20), then the whole suite in four shards and sanitize.sh.
set -uo pipefail
source tests/gpu/call_env.sh 5
for r in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --variant default > $L/goals-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/goals-r?.log > $L/goals.txt
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/goals-r?.log \
  | sort -k1,1 -k2,2 | awk '{k=$1" "$2; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1
echo "suite+sanitize rc=$? (${SECONDS}s)"; tail -3 $L/device_run.txt; pack
cat $L/inplace.txt; bench/compare_table.sh --whole $L/goals-r?.log; echo "total ${SECONDS}s"
