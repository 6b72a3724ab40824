#!/usr/bin/env bash
# Run 13, call 2: the any-n in-place kernel with aligned 16-byte words (inplace_words_kernel),
# now with both tiles' loads issued before the first scatter (runs 3 and 7 loaded and scattered
# one tile, then the other), 256-byte fetches and the grouped order, against the f32 / f64 odd-n
# strip defaults. -x: edge words read whole (the neighbours' elements dropped).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  timeout 400 compute-sanitizer --tool memcheck $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED" | head -5; } 2>&1 | tee $O/info.txt
V=default,words-32w16-t288-g8-p256,words-32w16-t288-g8-p256-x,words-32w16-t288-row-p256,words-32w16-t96-g8-p256
V=$V,words-64w16-t544-g4-p256,words-64w16-t256-g4-b2-p256,words-32w16-t544-g64-p256,words-32w16-t544-g8-p256
for i in 1 2 3; do
timeout 100 $B/bench_kernels --compare --types f32,f64 --shapes 16411x16411,16387x16387 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-4s %-32s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
