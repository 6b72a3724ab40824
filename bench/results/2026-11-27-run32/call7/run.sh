#!/usr/bin/env bash
# Run 32, call 7 (kernels/NOTES.md "Run 32"): do u8 / u16 pay for output rows on one stack?
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk u8-r$r --types u8 --variant default --shapes 327680x2049,327000x2049,327680x4096,327000x4096,655360x1001,655000x1001,327680x3000,327000x3000
  bk u16-r$r --types u16 --variant default --shapes 163840x2049,163000x2049,163840x4096,163000x4096,327680x1001,327000x1001,163840x3000,163000x3000
done
tar czf $O/logs.tgz -C /tmp logs
for f in $L/u8-r*.log $L/u16-r*.log; do
  r=$(basename $f .log); r=${r##*-}
  awk -v r=$r '$3=="cand"{print r, $1, $2, $4, $7, $9}' $f
done
echo "total ${SECONDS}s"
