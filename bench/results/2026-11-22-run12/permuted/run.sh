#!/usr/bin/env bash
# Run 12: the tiled transpose's traffic without the transposition. bench_copy_ceiling's tile
# copies (copy_tiles: 64 x 256-byte tiles, 4 words a thread, row-major tiles; same place, and
# tile (i,j) to (j,i) with rows kept, i.e. 256-byte pieces of 64 output rows from each block)
# beside cudaMemcpy and the plain copies, at f32 16384^2 and 32768^2 (1 and 4 GiB), twice; then
# bench_kernels' defaults at the same shapes for the tiled transpose on the same GPU.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=.gpu-bundle/bin
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$O/gpu.txt"
for i in 1 2; do $B/bench_copy_ceiling --mib 1024,4096 > "$O/ceiling$i.log" 2>&1; echo "ceiling$i rc=$?"; done
$B/bench_kernels --compare --variant default,tile-64x64w8 --types f32,f64,c128 \
  --shapes 16384x16384,32768x32768 --csv "$O/kernels.csv" > "$O/kernels.log" 2>&1; echo "kernels rc=$?"
grep -h -E 'memcpy|tiles|4 x 16B a thread, t256|FAIL' "$O"/ceiling*.log
grep -E 'memcpy|cand ' "$O/kernels.log" | grep -v inplace
