#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/gpu.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerVariants' --gtest_brief=1 > $O/tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED)|Failure|elem=' $O/tests.log | head -12
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' > $O/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $O/racecheck.log | tail -1)"
V=default,win-32,win-32-b4,win-32-b8,win-16,win-32-t512,win-64-t512,tile-32x32,tile-32x32-nc,tile-16x16,tile-16x16-nc,win-32-b4,tile-32x64w8-b3-nc,win-64,tile-64x64w8-nc
for i in 1 2; do
timeout 200 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 == "cand" || $3 == "cublas-geam") {printf "%-5s %-12s %-22s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '($3 == "cand" || $3 == "cublas-geam") {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
