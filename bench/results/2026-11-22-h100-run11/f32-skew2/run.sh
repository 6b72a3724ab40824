#!/usr/bin/env bash
# Run 11, call 7: more skewed f32 block shapes with 256-byte fetches (16411^2 is at 0.928).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
V=default,skew-64x128w16-b2-cm-p256,skew-64x96w16-b3-cm-p256,skew-64x48w16-b5-cm-p256,skew-64x64w16-a64-b4-cm-p256
for i in 1 2; do
timeout 100 $B/bench_kernels --compare --types f32 --shapes 16411x16411,20000x30000,16411x16400 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-34s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
