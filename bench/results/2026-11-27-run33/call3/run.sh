#!/usr/bin/env bash
# Run 33, call 3 (kernels/NOTES.md "Run 33"): the library's default against cuBLAS geam and
# memcpy on sizes never measured (1024² to 8192², odd and oblong shapes of 4-1600 MB), f32, f64,
# c128, two rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs3; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
S=1024x1024,2048x2048,4096x4096,8192x8192,1000x1000,3001x3001,6000x6000,7919x7919,10007x9973,4096x16384,16384x4096,1024x65536,65536x1024,12345x6789,2500x40000,40000x2500
for r in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --types f32,f64,c128 --variant default --shapes $S > $L/sweep-r$r.log 2>&1
  echo "round $r rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs3
done
grep -c -E "FAIL|mismatch" $L/sweep-r1.log $L/sweep-r2.log
echo "== type shape | default x mcpy r1 r2 | geam x mcpy r1 r2 (best of S/D/C/Z)"
for r in 1 2; do sed -n '/^# compare/,$p' $L/sweep-r$r.log | awk -v r=$r 'NF>8 && $1!="type" && $1!~/^#/{print r, $1, $2, $5, $9}'; done \
 | awk '{k=$2" "$3; d[k]=d[k]" "$4; g[k]=g[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++){k=key[i]; print k " |" d[k] " |" g[k]}}'
echo "total ${SECONDS}s"
