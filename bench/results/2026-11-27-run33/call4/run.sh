#!/usr/bin/env bash
# Run 33, call 4 (kernels/NOTES.md "Run 33"): every candidate, out of place and in place, at the
# sizes whose matrices stay in L2 (1000² to 2048²) and a control (3001²), f32 / f64 / c128, 100
# runs each, two rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
S=1000x1000,1024x1024,1500x1500,2048x2048,3001x3001
for r in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 100 --types f32,f64,c128 --shapes $S > $L/small-r$r.log 2>&1
  echo "round $r rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs4
done
grep -c -E "FAIL|mismatch" $L/small-r1.log $L/small-r2.log
for r in 1 2; do echo "== round $r: compare table"; sed -n '/^# compare/,$p' $L/small-r$r.log; done
echo "== top 4 out of place and in place per type/shape (GB/s), and the default"
for r in 1 2; do
  awk -v r=$r '($3=="cand"||$3=="cand-inplace"||$3=="cublas-geam")&&$9=="ok"{print r, $1, $2, $3, $4, $6}' $L/small-r$r.log
done | sort -k2,2 -k3,3 -k4,4 -k1,1n -k6,6gr | awk '{k=$2" "$3" "$4" r"$1; c[k]++; if(c[k]<=4 || $5=="default") printf "%s %s %s r%s %s %.0f\n",$2,$3,$4,$1,$5,$6}'
echo "total ${SECONDS}s"
