#!/usr/bin/env bash
# Run 14, call 3: the strip kernel with shifted words on both sides (swap_strip_shift, candidates
# sstrip*), against the odd-n strip defaults; 16384^2 for its cost on aligned rows.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran|sstrip' /tmp/tests.log | head -20
  for t in memcheck racecheck; do
    timeout 300 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
V=default,strip4-32w4-t512-g8-b2-l128-p256s,sstrip4-32w8-g8-b2-l128,sstrip4-32w8-g8-b2-l128-p256s
V=$V,sstrip4-32w8-g8-b3-l128-p256s,sstrip4-32w8-g16-b2-l128-p256s,sstrip4-32w8-g8-b2-p256s
V=$V,sstrip4-32w16-g64-b2-l128-p256s,sstrip4-32w16-g8-b2-l128-p256s
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32,f64 --shapes 16411x16411,16387x16387,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-4s %-32s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
