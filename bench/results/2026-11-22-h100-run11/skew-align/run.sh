#!/usr/bin/env bash
# Run 11, call 14: skewed pieces on 64 / 128 / 256 bytes (more extra input rows, read from L2)
# in column order, for c128 (16411^2 is at 0.930-0.931) and f64. Run 10 tried a64 / a128 in
# row-major order only.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerVariants' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
V=default,skew-32x32-a64-b4-cm,skew-32x32-a128-b4-cm,skew-64x32-a128-b3-cm,skew-64x32-a256-b3-cm,skew-32x32-a256-b4-cm
V=$V,skew-32x64w16-a64-b4-cm,skew-64x32w16-a128-b4-cm,skew-64x64w16-a128-b2-cm
for i in 1 2 3; do
timeout 100 $B/bench_kernels --compare --types f64,c128 --shapes 16411x16411,16387x16387 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 == "cand") {printf "%-5s %-12s %-30s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '($3 == "cand") {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 == "cand") {printf "%6s\n",$7}' $O/compare3.log)
