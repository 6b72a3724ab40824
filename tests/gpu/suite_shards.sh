#!/usr/bin/env bash
# The GPU test suite in N gtest shards at once on one GPU (default 4): the suite's host-side
# reference checks are most of its time, and one process ran past 280 s on slow hosts (kernels/
# NOTES.md, run 40 call 5). Logs go to OUT_DIR/suite-I.log; prints a line a shard and the totals,
# and exits non-zero when a shard failed or did not finish.
#   tests/gpu/suite_shards.sh BIN_DIR OUT_DIR [SHARDS] [gtest args...]
set -uo pipefail
bin=${1:?usage: suite_shards.sh BIN_DIR OUT_DIR [SHARDS] [gtest args]}
out=${2:?usage: suite_shards.sh BIN_DIR OUT_DIR [SHARDS] [gtest args]}
n=${3:-4}
shift $(($# < 3 ? $# : 3))
mkdir -p "$out"
pids=()
for ((i = 0; i < n; i++)); do
  GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$i "$bin/xpose_gpu_tests" "$@" >"$out/suite-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for ((i = 0; i < n; i++)); do
  wait "${pids[$i]}" || status=1
  echo "shard $i: $(grep -cE '^\[       OK' "$out/suite-$i.log") passed," \
    "$(grep -cE '^\[  SKIPPED \] [A-Za-z].* \(' "$out/suite-$i.log") skipped," \
    "$(grep -cE '^\[  FAILED  \] [A-Za-z].* \(' "$out/suite-$i.log") failed"
done
grep -hE "^\[  FAILED  \] [A-Za-z].* \(|Failure$" "$out"/suite-*.log | head -20
cat "$out"/suite-*.log | awk '/^\[       OK/{p++} /^\[  SKIPPED \] [A-Za-z].* \(/{s++}
  /^\[  FAILED  \] [A-Za-z].* \(/{f++} END{printf "suite: %d passed, %d skipped, %d failed\n", p, s, f}'
exit $status
