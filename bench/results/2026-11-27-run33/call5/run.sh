#!/usr/bin/env bash
# Run 33, call 5 (kernels/NOTES.md "Run 33"): in place at small n off 256-byte rows, the default
# against one-pair-a-block kernels with 32-wide tiles (and c128's 16-wide), f32 / f64 / c128,
# n = 700 to 10007, 50 runs each, two rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs5; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
S=700x700,1000x1000,1500x1500,2000x2000,2500x2500,3001x3001,4001x4001,5003x5003,6007x6007,8001x8001,10007x10007
for r in 1 2; do
  timeout 100 $B/bench_kernels --compare --reps 50 --types f32 --variant default,tile-32w4-row,rot64-t512-g4-b2-p256 --shapes $S > $L/f32-r$r.log 2>&1; echo "f32 r$r rc=$? (${SECONDS}s)"
  timeout 100 $B/bench_kernels --compare --reps 50 --types f64 --variant default,tile-32w8-row,tile-32w16-row --shapes $S > $L/f64-r$r.log 2>&1; echo "f64 r$r rc=$? (${SECONDS}s)"
  timeout 100 $B/bench_kernels --compare --reps 50 --types c128 --variant default,tile-32-row,tile-16-row --shapes $S > $L/c128-r$r.log 2>&1; echo "c128 r$r rc=$? (${SECONDS}s)"
  tar czf $O/logs.tgz -C /tmp logs5
done
grep -c -E "FAIL|mismatch" $L/*.log | paste -sd' '
echo "== in place GB/s: type n | candidate r1 r2 ..."
for t in f32 f64 c128; do for r in 1 2; do awk -v r=$r '$3=="cand-inplace"&&$9=="ok"{print $1, $2, $4, r, $6}' $L/$t-r$r.log; done; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
echo "total ${SECONDS}s"
