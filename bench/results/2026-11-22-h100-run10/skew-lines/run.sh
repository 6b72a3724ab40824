#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerVariants' --gtest_brief=1 > $O/tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED)|Failure|elem=' $O/tests.log | head -12
V=default,skew-64x64w16-b4,skew-64x64w16-a128-b4,skew-128x32w16-a128-b4,skew-128x32w16-a128-b3,skew-128x32w16-a64-b4,skew-128x64w16-a128-b2,skew-128x64w16-a128-t512-b2,skew-256x32w16-a128-t512-b2,skew-32x64w16-b4,skew-64x32w16-a128-b4,skew-64x64w16-a128-b2,skew-128x32w16-a128-t512-b2,skew-64x32w16-a64-b4,skew-32x64-b2,skew-32x64-a128-b2,skew-64x32-a128-b3,skew-32x32-a128-b4,skew-32x32-a128-b3,skew-32x64-a64-b2
for i in 1 2; do
timeout 200 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 == "cand" || $3 == "cublas-geam") && $2 ~ /16411|20000/ {printf "%-5s %-12s %-28s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '($3 == "cand" || $3 == "cublas-geam") && $2 ~ /16411|20000/ {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
