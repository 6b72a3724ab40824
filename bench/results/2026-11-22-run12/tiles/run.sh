#!/usr/bin/env bash
# Run 12: tile shapes the permuted copies point at, for the aligned f64 and c128 squares:
# f64 32 x 32 tiles of 8-byte words (32 output rows a block, like the fastest permuted copy),
# c128 16 x 32 and 16 x 64 tiles (512-byte / 1 KB reads, 256-byte writes: the f64 default's
# shape). The candidates' GPU tests first, then --compare three times.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=.gpu-bundle/bin
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$O/gpu.txt"
$B/xpose_gpu_tests --gtest_filter='*EveryVariant*:*Sanitizer*' > "$O/tests.log" 2>&1; echo "tests rc=$?"
grep -E '^\[  (PASSED|FAILED) |Failure' "$O/tests.log" | head
for i in 1 2 3; do
  $B/bench_kernels --compare --types f64,c128 --shapes 16384x16384,32768x32768,20000x30000 \
    --variant default,tile-32x64w8-b4,tile-32x32w8,tile-32x32w8-b6,tile-16x32,tile-16x32-b4,tile-16x64,tile-32x16 \
    --csv "$O/compare$i.csv" > "$O/compare$i.log" 2>&1; echo "compare$i rc=$?"
done
for i in 1 2 3; do grep -E 'memcpy|cand ' "$O/compare$i.log" | grep -v inplace | awk '{printf "%s %s %s %s %s\n", $1,$2,$4,$7,$8}'; done | sort -s -k1,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4"/"$5} END {for (k in a) print k, a[k]}' | sort
