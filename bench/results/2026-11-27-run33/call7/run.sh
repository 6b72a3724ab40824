#!/usr/bin/env bash
# Run 33, call 7 (kernels/NOTES.md "Run 33"): f64 / c128 in place, batches of small matrices
# whose whole batch gives the old kernel enough blocks: the old kernel against 32 x 32 pairs.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
F64=strip4-32w8-t512-g64-b2-l128-p256s,tile-32w8-row
C128=multi2-32-g32-p256,tile-32-row
for r in 1 2; do
  $B/bench_kernels --compare --reps 50 --batch 2 --types f64 --variant $F64 --shapes 2500x2500,3001x3001 > $L/f64-b2-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types f64 --variant $F64 --shapes 1500x1500,2200x2200 > $L/f64-b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 16 --types f64 --variant $F64 --shapes 1200x1200,700x700 > $L/f64-b16-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 2 --types c128 --variant $C128 --shapes 2500x2500,1900x1900 > $L/c128-b2-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 4 --types c128 --variant $C128 --shapes 2200x2200,1300x1300 > $L/c128-b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 50 --batch 16 --types c128 --variant $C128 --shapes 800x800,1200x1200 > $L/c128-b16-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs7
done
grep -l -E "FAIL|mismatch|ERROR" $L/*.log | head
echo "== in place GB/s: type shape | candidate r1 r2"
for r in 1 2; do for f in $L/*-r$r.log; do awk -v r=$r '$3=="cand-inplace"&&$9=="ok"{print $1, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
echo "total ${SECONDS}s"
