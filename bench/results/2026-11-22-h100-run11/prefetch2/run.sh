#!/usr/bin/env bash
# Run 11, call 2: shapes and groups around the prefetch-size winners of call 1, and the f32
# layouts with input rows 16 / 32 / 64 bytes off 128-byte lines (which kernel takes them).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariant*:CudaKernels.SanitizerVariants' --gtest_brief=1 > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|elem=' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
V=default,skew-64x64w16-b4-cm,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-p256,skew-64x64w16-b3-cm-p256,skew-32x64w16-b4-cm-p256,skew-64x32w16-b4-cm-p256,skew-32x128w16-b4-cm-p256,skew-128x32w16-b4-cm-p256
V=$V,skew-32x64w16-b4-cm,skew-32x64w16-b4-cm-p128,skew-64x32w16-b4-cm,skew-64x32w16-b4-cm-p256,skew-32x32w16-b4-cm-p256
V=$V,strip4-32w4-t512-g8-b2-l128-p256,strip4-32w4-t512-g4-b2-l128-p256,strip4-32w4-t512-g16-b2-l128-p256,strip4-32w4-t512-g8-b2-p256,strip8-32w4-t512-g32-b2-p256,multi4-32w4-g8-b2-p256,tile-32w4-g4-p256
V=$V,strip4-32w8-t512-g64-b2-l128-p256,strip4-32w8-t512-g64-b2-l128-p128,strip4-32w8-t512-g16-b2-l128-p256,strip4-32w8-t512-g8-b2-l128-p256
V=$V,multi2-32-g32,multi2-32-g32-p256,multi2-32-g8-p256,multi2-32-g32-p128,strip2-32-g32-p256
for i in 1 2; do
timeout 150 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
E=default,tile-64x64w8,tmald-64x64,skew-64x64w16-b4-cm,skew-64x64w16-b4-cm-p256,skew-32x64w16-b4-cm-p256,skew-32x128w16-b4-cm-p256
timeout 100 $B/bench_kernels --compare --variant $E --types f32 --shapes 16384x16400,16400x16384,16384x16392,16392x16384,16384x16388,16388x16384,20000x30000 --csv $O/extra.csv > $O/extra.log 2>&1; echo "extra rc=$?"
paste <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") && $1 != "f64x" {printf "%-5s %-12s %-4s %-34s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%6s %4s\n",$7,$8}' $O/compare2.log) | grep -v "16384x16384\|32768x32768"
awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-34s %6s %4s\n",$1,$2,substr($3,1,4),$4,$7,$8}' $O/extra.log
