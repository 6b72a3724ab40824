#!/usr/bin/env bash
# Run 12: block orders for the permuted tile copies (row-major, column-major, groups of 8 tile
# rows, 32 x 32 squares of tiles, diagonals), beside the shapes of permuted2/, at f32 16384^2
# and 32768^2 (1 and 4 GiB), three times.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=.gpu-bundle/bin
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$O/gpu.txt"
for i in 1 2 3; do $B/bench_copy_ceiling --mib 1024,4096 > "$O/ceiling$i.log" 2>&1; echo "ceiling$i rc=$?"; done
grep -h -E 'memcpy|tiles|4 x 16B a thread, t256|FAIL' "$O"/ceiling*.log | sort -s -k1,7 | awk '{print}'
