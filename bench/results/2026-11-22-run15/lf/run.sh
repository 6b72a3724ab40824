#!/usr/bin/env bash
# Run 15, call 7: the aligned in-place pair kernels with both tiles' loads issued first
# (swap_one_pair_lf, candidates tile-*-row-lf[-bN]) against the defaults.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  for t in memcheck racecheck; do
    timeout 300 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
V=default,tile-64w16-row-lf,tile-64w16-row-lf-b3,tile-64w16-row-lf-b2,tile-32w16-row-lf,tile-32w16-row-lf-b3,tile-32-row-lf,tile-32-row-lf-b3
for i in 1 2 3; do
timeout 180 $B/bench_kernels --compare --types f32,f64,c128 --shapes 16384x16384,32768x32768 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-22s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
