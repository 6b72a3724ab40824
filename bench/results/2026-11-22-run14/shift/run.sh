#!/usr/bin/env bash
# Run 14, call 1: in place with shifted 8-byte (f32) / 16-byte (f64) words, realigned by warp
# shuffles (inplace_kernel<C, Order, SHIFT = true>, candidates shift-*), against the odd-n strip
# defaults; 16384^2 for the kernel's cost on aligned rows.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  for t in memcheck racecheck; do
    timeout 300 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
V=default,shift-64w8-row-b2,shift-64w8-g4-b2,shift-64w8-row-b2-p256,shift-64w8-t512-row-b2,shift-64w8-t512-g4-b2
V=$V,shift-64w8-t512-g8-b2,shift-64w8-t512-row-b2-p256,shift-64w8-t512-g4-b2-p256,shift-32w8-row
V=$V,shift-32w16-row,shift-32w16-g8,shift-32w16-row-p256,shift-32w16-g8-p256
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32,f64 --shapes 16411x16411,16387x16387,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/ || $3 ~ /^in/) {printf "%-5s %-12s %-4s %-32s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/ || $3 ~ /^in/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/ || $3 ~ /^in/) {printf "%6s\n",$7}' $O/compare3.log)
