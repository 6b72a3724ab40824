#!/usr/bin/env bash
# Run 13, call 4: the f32 skewed kernel (64 x 64, pieces on sectors, 256-byte fetches, column
# order) with other block sizes: 128 threads (10 words a thread, 4-5 blocks an SM), 192 (7
# words, 4 blocks), 320 (4 words, 3 blocks), against the default's 256 (5 words, 4 blocks).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerVariants' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
V=default,skew-64x64w16-t128-b5-cm-p256,skew-64x64w16-t128-b4-cm-p256,skew-64x64w16-t192-b4-cm-p256,skew-64x64w16-t320-b3-cm-p256
for i in 1 2 3; do
timeout 100 $B/bench_kernels --compare --types f32 --shapes 16411x16411,16387x16387,20000x30000 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 == "cand") {printf "%-5s %-12s %-32s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '($3 == "cand") {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 == "cand") {printf "%6s\n",$7}' $O/compare3.log)
