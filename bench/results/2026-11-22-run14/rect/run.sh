#!/usr/bin/env bash
# Run 14, call 5: in place with square super-tiles of 64 or 96, the rows of both sides rotated onto
# 128-byte lines (inplace_rect_kernel, candidates rect*), against the odd-n defaults.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  for t in memcheck racecheck; do
    timeout 300 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
V=default,rect2-32w4-t512-row-b2-l128-p256s,rect2-32w4-t512-g4-b2-l128-p256s,rect2-32w4-t512-row-b2-l128
V=$V,rect3-32w4-t1024-row-l128-p256s,rect3-32w4-t1024-g4-l128-p256s,rect2-32w8-t512-row-b2-l128-p256s,rect2-32w8-t512-g4-b2-l128-p256s
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32,f64 --shapes 16411x16411,16387x16387,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-34s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
