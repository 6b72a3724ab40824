#!/usr/bin/env bash
# Run 13, call 1: skewed output pieces on 16 bytes (-a16; f64 also -a8 with 8-byte words) in
# column order: fewer extra input rows (f32 3 instead of 7, f64 1 or 0, c128 none) against half
# sectors at the pieces' ends, which the next block in the column completes. And in place f32
# odd n with 256-thread blocks, 4 blocks an SM (strip4 / strip2 -b4).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariant*:CudaKernels.SanitizerVariants:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  compute-sanitizer --tool racecheck $B/xpose_gpu_tests --gtest_filter='CudaKernels.MultiPairInPlace' 2>&1 | grep -E "RACECHECK SUMMARY|PASSED|FAILED"; } 2>&1 | tee $O/info.txt
V=default,skew-64x64w16-a16-b4-cm-p256,skew-32x64w16-a16-b4-cm,skew-32x64w8-a8-b3-cm,skew-32x64w8-a8-b4-cm
V=$V,skew-32x32-a16-b3-cm,skew-32x32-a16-b4-cm
V=$V,strip4-32w4-t512-g8-b2-l128-p256s,strip4-32w4-g8-b4-l128-p256s,strip2-32w4-g4-b4-l128-p256s
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32,f64,c128 --shapes 16411x16411,16387x16387 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
# output rows 16 bytes off sectors: -a16 needs no skew there at all
V2=default,skew-64x64w16-a16-b4-cm-p256,skew-32x64w16-a16-b4-cm,skew-32x64w8-a8-b4-cm,skew-32x32-a16-b3-cm,skew-32x32-a16-b4-cm
for t in f32:16388x16384 f64:16386x16384 c128:16385x16384; do
timeout 60 $B/bench_kernels --compare --types ${t%%:*} --shapes ${t#*:} --variant $V2 > $O/off16-${t%%:*}.log 2>&1; echo "bench rc=$?"
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-4s %-36s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
cat $O/off16-*.log | awk '($3 ~ /^cand/ || $3 == "memcpy") {printf "%-5s %-12s %-4s %-36s %6s %6s\n",$1,$2,substr($3,1,4),$4,$7,$8}'
