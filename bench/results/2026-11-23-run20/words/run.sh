#!/usr/bin/env bash
# Run 20, call 2: the narrow kernels with word gathers (narrow_store_rows) against the element
# gathers (-eg) and the defaults; tests of every candidate, memcheck and racecheck.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariant*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
grep -E "Failure|FAILED" $O/logs/tests.log | head -20
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/logs/$tool.log | tail -1 | tee -a $O/logs/summary.txt
done
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,20000x30000
V8=default,narrow-128-t256-b4-cm-eg,narrow-128-t256-b4-cm,narrow-128-t512-b2-cm,narrow128-t1024-g8,narrow128-t1024-g32,narrow128-t512-b2-g32
V16=default,narrow-128-t512-b2-cm-eg,narrow-128-t512-b2-cm,narrow-128-t256-b4-cm,narrow64-t512-b2-g32,narrow128-t1024-g32,narrow128-t1024-g8
timeout 200 $B/bench_kernels --compare --reps 20 --variant $V8 --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 200 $B/bench_kernels --compare --reps 20 --variant $V16 --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run20-words.tgz -C $O logs
for f in u8 u16; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-13s %-24s %7s %6s\n",$1,$2,$3,$4,$6,$7}'; done
