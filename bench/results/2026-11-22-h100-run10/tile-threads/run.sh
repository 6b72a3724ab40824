#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerVariants' --gtest_brief=1 > $O/tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED)|Failure|elem=' $O/tests.log | head -12
V=default,tile-64x64w8-t512,tile-64x64w8-t1024,tile-64x64w8-g2,tile-64x64w8-g4,tile-32x64w8-t512,tile-32x64w8-t1024,tile-32x64w8-b3-g2,tile-32x64w8-b3-g4,tile-16x16-g2,tile-16x16-g4,tile-32x32-t1024
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 == "cand" || $3=="memcpy") && $2 !~ /16411|20000/ {printf "%-5s %-12s %-22s %7s %6s\n",$1,$2,$4,$6,$7}' $O/compare1.log) <(awk '($3 == "cand" || $3=="memcpy") && $2 !~ /16411|20000/ {printf "%7s %6s\n",$6,$7}' $O/compare2.log) <(awk '($3 == "cand" || $3=="memcpy") && $2 !~ /16411|20000/ {printf "%7s %6s\n",$6,$7}' $O/compare3.log)
