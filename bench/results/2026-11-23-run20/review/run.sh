#!/usr/bin/env bash
# Run 20, call 13: after the second review mend (one narrow_tile_bytes, -eg removed, candidate
# tables by alias): the GPU suite, memcheck and racecheck of the sanitizer and NarrowDefaults tests.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) " $O/logs/tests.log | tee -a $O/logs/summary.txt
for tool in memcheck racecheck; do
  timeout 250 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerShapes*:*SanitizerVariants*:*NarrowDefaults*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/logs/$tool.log | tail -1 | tee -a $O/logs/summary.txt
done
tar czf $O/run20-review.tgz -C $O logs
