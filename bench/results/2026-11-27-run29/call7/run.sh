#!/usr/bin/env bash
# Run 29, call 7 (kernels/NOTES.md "Run 29"): on an H200, every out-of-place candidate against
# memcpy and cuBLAS geam at the goal shapes (f32, f64, c128), two rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
for r in 1 2; do
  for t in f32 f64 c128; do
    timeout 280 $B/bench_kernels --compare --types $t --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/all-$t-$r.log 2>&1
    echo "$t round $r rc=$? (${SECONDS}s)"
    [ $SECONDS -gt 480 ] && break 2
  done
done
tar czf $O/logs.tgz -C /tmp logs
echo "== x memcpy per candidate (round 1), best five per shape, and geam"
for t in f32 f64 c128; do
  awk '$3=="cand" || $3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/all-$t-1.log | sort -k2,2 -k4,4nr | awk '{k=$2; n[k]++; if (n[k]<=5 || $3 ~ /geam/ || $3=="default") print}'
done
grep -h -A20 "winner" $L/all-*-1.log | head -40
echo "total ${SECONDS}s"
