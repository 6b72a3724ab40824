#!/usr/bin/env bash
# Run 20, call 11: the u8 default with the rotated 256 x 256 tiles where rows are off 4 bytes:
# GPU suite, memcheck and racecheck of the sanitizer and NarrowDefaults tests, the default
# against the 128 tiles on rows off 4 bytes (and the shapes of the record), twice.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) " $O/logs/tests.log | tee -a $O/logs/summary.txt
for tool in memcheck racecheck; do
  timeout 250 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerShapes*:*NarrowDefaults*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/logs/$tool.log | tail -1 | tee -a $O/logs/summary.txt
done
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,16387x16387,20000x30000,20001x30001
for rep in 1 2; do
  timeout 150 $B/bench_kernels --compare --reps 20 --variant default,narrow-128-t256-b4-cm,narrow-256-t512-b2-cm-rot --types u8 --shapes $S > $O/logs/u8-$rep.log 2>&1; echo "u8 $rep rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run20-rot2.tgz -C $O logs
for f in u8-1 u8-2; do echo "== $f"; grep -E '^u8 ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-30s %7s %6s\n",$1,$2,$4,$6,$7}'; done
