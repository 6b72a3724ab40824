#!/usr/bin/env bash
# Run 32, call 12 (kernels/NOTES.md "Run 32"): f32's skewed-kernel shapes, the final code against
# commit c58c6df (before the spread), on one card, three alternating rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
for r in 1 2 3; do
  for v in new old; do
    exe=$B/bench_kernels; [ $v = old ] && exe=$B/bench_kernels_c58
    timeout 120 $exe --compare --reps 20 --types f32 --variant default --shapes 16411x16411,20000x30000,16387x16387,16384x16384 > $L/$v-r$r.log 2>&1
    echo "$v r$r rc=$? (${SECONDS}s)"
  done
done
tar czf $O/logs.tgz -C /tmp logs
echo "== shape, code, round, GB/s, x memcpy"
for f in $L/new-r*.log $L/old-r*.log; do
  n=$(basename $f .log)
  awk -v n=$n '$3=="cand"{print $2, n, $6, $7}' $f
done | sort
echo "total ${SECONDS}s"
