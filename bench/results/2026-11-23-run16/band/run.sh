#!/usr/bin/env bash
# Run 16, call 1: in place at odd n as skewed out-of-place tiles in bands through an L2 ring
# (band.cuh, candidates band*), against the odd-n default.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran|band' /tmp/tests.log | head -20
  for t in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
cp /tmp/tests.log $O/tests.log
V=default,band248-l48-r64,band248-l16-r24,band504-l24-r40,band120-l96-r112,band248-l48-r64-b3
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32 --shapes 16411x16411,16387x16387,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-34s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
