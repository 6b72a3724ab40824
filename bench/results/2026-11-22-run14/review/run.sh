#!/usr/bin/env bash
# Run 14, review check: bench_copy_ceiling after square_f32_side became constant time; every
# copy (tile copies included) must still verify.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,ecc.mode.current --format=csv,noheader | tee $O/info.txt
timeout 300 $B/bench_copy_ceiling --mib 1024,4096 --reps 5 > $O/copy.log 2>&1; echo "rc=$?" | tee -a $O/info.txt
grep -cE ' ok$' $O/copy.log; grep -E 'FAILED|skipped' $O/copy.log | head; grep -E 'tiles 64 x 256B w16|^cudaMemcpy|memcpy' $O/copy.log | head
