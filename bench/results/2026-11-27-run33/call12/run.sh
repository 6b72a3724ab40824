#!/usr/bin/env bash
# Run 33, call 12 (kernels/NOTES.md "Run 33"): u8 / u16 in place at small n, every candidate,
# 50 runs, two rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs12; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
S=700x700,1000x1000,1500x1500,2000x2000,3001x3001,5003x5003
for r in 1 2; do
  $B/bench_kernels --compare --reps 50 --types u8,u16 --shapes $S > $L/small-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs12
done
grep -l -E "FAIL|mismatch|ERROR" $L/small-*.log
echo "== in place GB/s, top 3 and the default per type / shape, rounds 1 and 2"
for r in 1 2; do awk -v r=$r '$3=="cand-inplace"&&$9=="ok"{print r, $1, $2, $4, $6}' $L/small-r$r.log; done \
 | sort -k2,2 -k3,3V -k1,1n -k5,5gr | awk '{k=$2" "$3" r"$1; c[k]++; if(c[k]<=3 || $4=="default") printf "%s %s r%s %s %.0f\n",$2,$3,$1,$4,$5}'
echo "== out of place default GB/s"; awk '$3=="cand"&&$4=="default"{print $1, $2, $6}' $L/small-r1.log
echo "total ${SECONDS}s"
