#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/gpu.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace' --gtest_brief=1 > $O/tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED)|Failure|elem=' $O/tests.log | head -12
V=default,skew-64x64w16-b4-colmajor,skew-64x64w16-b4-g64,skew-64x64w16-b4-g128,skew-64x64w16-b3-cm,skew-64x64w16-a128-b4-cm,skew-128x32w16-a64-b4-cm,skew-128x32w16-b4-cm,skew-64x32w16-b6-cm,skew-32x64w16-b6-cm,skew-32x64w16-b4-colmajor,skew-32x64w16-b4-g64,skew-32x64w16-b4-g128,skew-64x32w16-a64-b4-cm,skew-64x32w16-b4-cm,skew-32x32w16-b6-cm,skew-64x64w16-b2-cm,skew-32x32-b4-colmajor,skew-32x32-b4-g64,skew-32x32-b4-g128,skew-32x32-b3-cm,skew-16x64-b4-cm,skew-32x16-b6-cm,skew-64x32-b3-cm,skew-32x32-a128-b3-cm,skew-32x64-b2-colmajor
for i in 1 2; do
timeout 200 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 == "cand" || $3 == "cublas-geam") && ($2 ~ /16411/ || ($1=="f32" && $2 ~ /20000/)) {printf "%-5s %-12s %-26s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '($3 == "cand" || $3 == "cublas-geam") && ($2 ~ /16411/ || ($1=="f32" && $2 ~ /20000/)) {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
