#!/usr/bin/env bash
# Run 12: which traffic shape the transposes' write pattern likes. bench_copy_ceiling's tile
# copies, permuted (tile (i,j) to (j,i), rows kept): ROWS x PIECE-byte tiles with 16- or 8-byte
# words (a warp instruction covers one 256-byte row with 8-byte words, two with 16-byte words),
# at f32 16384^2 and 32768^2 (1 and 4 GiB), three times.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=.gpu-bundle/bin
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$O/gpu.txt"
for i in 1 2 3; do $B/bench_copy_ceiling --mib 1024,4096 > "$O/ceiling$i.log" 2>&1; echo "ceiling$i rc=$?"; done
grep -h -E 'memcpy|tiles|4 x 16B a thread, t256|FAIL' "$O"/ceiling*.log | sort -s -k1,7 | awk '{print}'
