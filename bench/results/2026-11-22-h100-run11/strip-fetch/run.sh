#!/usr/bin/env bash
# Run 11, call 9: the in-place strip kernels (odd n) with 256-byte fetches on the strip's loads
# too (-p256s; the default has them on the upper tiles only) and strip warps on 256-byte
# boundaries (-l256).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  compute-sanitizer --tool racecheck $B/xpose_gpu_tests --gtest_filter='CudaKernels.MultiPairInPlace' 2>&1 | grep -E "RACECHECK SUMMARY|PASSED|FAILED"; } 2>&1 | tee $O/info.txt
V=default,strip4-32w4-t512-g8-b2-l128-p256,strip4-32w4-t512-g8-b2-l128-p256s,strip4-32w4-t512-g8-b2-l256-p256,strip4-32w4-t512-g8-b2-l256-p256s
V=$V,strip4-32w8-t512-g64-b2-l128-p256,strip4-32w8-t512-g64-b2-l128-p256s,strip4-32w8-t512-g64-b2-l256-p256,strip4-32w8-t512-g64-b2-l256-p256s
for i in 1 2 3; do
timeout 100 $B/bench_kernels --compare --types f32,f64 --shapes 16411x16411,16387x16387 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-4s %-38s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
