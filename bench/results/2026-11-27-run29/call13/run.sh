#!/usr/bin/env bash
# Run 29, call 13 (kernels/NOTES.md "Run 29"): on an H200, c128's tiled kernel with 128 threads
# where the DRAM gives 15 bytes or more per SM clock: held-out shapes, the new default against
# the 256-thread form (tile-16x16) and tile-16x16-t128, two rounds (calls 8-9 landed on H100s).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
K=8192x8192,12288x12288,24576x24576,16384x32768,32768x16384,20480x12288,16384x16384,32768x32768
for r in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 10 --variant default,tile-16x16,tile-16x16-t128 --types c128 --shapes $K > $L/c128-$r.log 2>&1
  echo "round $r rc=$? (${SECONDS}s)"
done
head -1 $L/c128-1.log
tar czf $O/logs.tgz -C /tmp logs
echo "== c128 x memcpy: shape, default / tile-16x16 / tile-16x16-t128 / geam (round 1 | round 2)"
col() { awk -v v=$2 '($3=="cand" && $4==v) || ($3=="cublas-geam" && v=="geam"){print $7 ($9=="ok"?"":"!")}' $1; }
paste <(awk '$3=="cand" && $4=="default"{print $2}' $L/c128-1.log) \
      <(col $L/c128-1.log default) <(col $L/c128-1.log tile-16x16) <(col $L/c128-1.log tile-16x16-t128) <(col $L/c128-1.log geam) \
      <(col $L/c128-2.log default) <(col $L/c128-2.log tile-16x16) <(col $L/c128-2.log tile-16x16-t128) <(col $L/c128-2.log geam)
echo "total ${SECONDS}s"
