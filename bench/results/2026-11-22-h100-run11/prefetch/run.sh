#!/usr/bin/env bash
# Run 11, call 1: L2 prefetch-size loads (-p128 / -p256) against the same kernels without them,
# and a size sweep of the library defaults (where does the aligned plateau fall off?).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader | tee $O/gpu.txt
(cuobjdump -sass $B/bench_kernels | grep -o 'LDG[.A-Z0-9_]*' | sort | uniq -c) > $O/sass.txt 2>&1; cat $O/sass.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariant*' --gtest_brief=1 > $O/tests.log 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED)|Failure|elem=' $O/tests.log | head -12
V=default,tile-64x64w8,tile-64x64w8-p128,tile-64x64w8-p256,tmald-64x64,skew-64x64w16-b4-cm,skew-64x64w16-b4-cm-p128,skew-64x64w16-b4-cm-p256
V=$V,tile-32x64w8-b3,tile-32x64w8-b3-p256,skew-32x64w16-b4-cm,skew-32x64w16-b4-cm-p256
V=$V,tile-16x16,tile-16x16-p256,skew-32x32-b4-cm,skew-32x32-b4-cm-p256
V=$V,tile-64w16-row,tile-64w16-row-p256,strip4-32w4-t512-g8-b2-l128,strip4-32w4-t512-g8-b2-l128-p128,strip4-32w4-t512-g8-b2-l128-p256
V=$V,tile-32w16-row,tile-32w16-row-p256,strip4-32w8-t512-g64-b2-l128,strip4-32w8-t512-g64-b2-l128-p256
V=$V,multi2-32-g32,multi2-32-g32-p256,tile-32-row,tile-32-row-p256
for i in 1 2; do
timeout 150 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
timeout 120 $B/bench_kernels --variant default --reps 20 --shapes 8192x8192,16384x16384,24576x24576,32768x32768,16384x32768,32768x16384 --csv $O/sweep.csv > $O/sweep.log 2>&1; echo "sweep rc=$?"
paste <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-34s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
awk -F, 'NR>1 {printf "%-5s %-12s %-12s %-22s %8s %7s\n",$1,$2,$3,$4,$6,$7}' $O/sweep.csv
