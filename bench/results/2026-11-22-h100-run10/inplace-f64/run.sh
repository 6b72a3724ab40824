#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/gpu.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' --gtest_brief=1 > $O/tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED)|Failure|elem=' $O/tests.log | head -12
V=default,strip4-32w8-t512-g8-b2-l128,strip4-32w8-t512-g64-b2-l128,strip4-32w8-t512-g128-b2-l128,strip4-32w8-t512-g256-b2-l128,strip8-32w8-t512-g64-b2-l128,strip6-32w8-t512-g60-b2-l128,strip4-32w8-g64-b2-l128,strip2-32w8-g64-b3-l128,strip4-32w8-t512-g64-b2,strip8-32w8-t1024-g64-l128
for i in 1 2 3; do
timeout 200 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /cand/) && $1 == "f64" && $2 ~ /16411|16384/ {printf "%-5s %-12s %-13s %-30s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /cand/) && $1 == "f64" && $2 ~ /16411|16384/ {printf "%6s %4s\n",$7,$8}' $O/compare2.log) <(awk '($3 ~ /cand/) && $1 == "f64" && $2 ~ /16411|16384/ {printf "%6s %4s\n",$7,$8}' $O/compare3.log)
