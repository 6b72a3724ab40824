#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.AsyncSkew*:CudaKernels.SanitizerVariants' --gtest_brief=1 > $O/tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED)|Failure|elem=' $O/tests.log | head -12
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' > $O/racecheck.log 2>&1; echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $O/racecheck.log | tail -1)"
V=default,skew-64x64w16-b4,skew-64x64w16-b5,skew-64x64w16-b6,skew-64x64w16-t128-b8,skew-32x64w16-b6,skew-32x64w16-b8,askew-64x64-b5,askew-56x64-b6,askew2-64x64-b3,askew2-56x64-b4,askew2-56x32-b6,skew-32x64w16-b5,skew-32x64w16-t128-b8,skew-16x64w16-b8,askew-32x64-b5,askew-28x64-b6,askew2-32x64-b3,askew2-28x64-b4,skew-32x64-b2,skew-16x64-b6,skew-32x64-t128-b4,skew-32x64-b3,askew-16x64-b5,askew-32x64-b3,askew2-16x64-b3,askew2-32x32-b3
for i in 1 2; do
timeout 170 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '$3 == "cand" || $3=="cublas-geam" {printf "%-5s %-12s %-24s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '$3 == "cand" || $3=="cublas-geam" {printf "%6s %4s\n",$7,$8}' $O/compare2.log) | grep -v '^f..  *16384\|^c128 *16384'
