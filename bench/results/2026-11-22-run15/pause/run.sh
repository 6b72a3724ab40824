#!/usr/bin/env bash
# Run 15, call 4: the f32 odd-n strip default and its -cg form with a pause at each block start
# (-dNS: __nanosleep(NS) between the decode and the loads), against the default.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  for t in memcheck racecheck; do
    timeout 300 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
S=strip4-32w4-t512-g8-b2-l128-p256s
V=default,$S-cg,$S-d250,$S-d500,$S-d1000,$S-cg-d250,$S-cg-d500
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32 --shapes 16411x16411,16387x16387,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-40s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
