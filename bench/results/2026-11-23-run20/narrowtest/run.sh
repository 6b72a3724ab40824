#!/usr/bin/env bash
# Run 20, call 9: the new GPU test of the 1- and 2-byte defaults (CudaKernels.NarrowDefaults),
# alone and under memcheck and racecheck; then the whole GPU suite once more.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/info.txt
$B/xpose_gpu_tests --gtest_filter='*NarrowDefaults*' > $O/logs/narrow.log 2>&1; echo "narrow rc=$?" | tee -a $O/logs/summary.txt
grep -E "OK|FAILED|Failure" $O/logs/narrow.log | head -10
for tool in memcheck racecheck; do
  timeout 250 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*NarrowDefaults*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/logs/$tool.log | tail -1 | tee -a $O/logs/summary.txt
done
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) " $O/logs/tests.log | tee -a $O/logs/summary.txt
tar czf $O/run20-narrowtest.tgz -C $O logs
