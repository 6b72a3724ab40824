#!/usr/bin/env bash
# Run 11, call 15: in place f32 odd n with 64 x 64 tiles (256-byte row pieces on both sides)
# and 256-byte fetches, grouped order, one or two pairs a block: does the wider row piece help
# where the 32 x 32 strip kernel is at 0.857 x memcpy?
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
V=default,tile-64w4-t512-g4,multi2-64w4-t512-g2,tile-64w4-t512-g4-p256,tile-64w4-t512-g8-p256,multi2-64w4-t512-g4-p256,multi2-64w4-t512-g8-p256,multi2-64w4-t1024-g8-p256
for i in 1 2; do
timeout 100 $B/bench_kernels --compare --types f32 --shapes 16411x16411,16387x16387 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-13s %-30s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log)
