#!/usr/bin/env bash
# Run 11, call 12: the skewed kernels' 256-byte-fetch loads as ld.global.nc asm without the
# "memory" clobber (-p256r: the compiler may move them past the kernel's stores), against the
# default (f32: volatile asm with the clobber) and the plain loads; f64 / c128 too, to see whether
# f64's 16 % loss with the fetches comes from the asm's ordering.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerVariants' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
V=default,skew-64x64w16-b4-cm,skew-64x64w16-b4-cm-p256r,skew-32x64w16-b4-cm,skew-32x64w16-b4-cm-p256r,skew-32x32-b4-cm,skew-32x32-b4-cm-p256r
for i in 1 2 3; do
timeout 100 $B/bench_kernels --compare --shapes 16411x16411,20000x30000,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 == "cand") {printf "%-5s %-12s %-30s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '($3 == "cand") {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 == "cand") {printf "%6s\n",$7}' $O/compare3.log)
