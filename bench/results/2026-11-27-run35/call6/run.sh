#!/usr/bin/env bash
# Run 35, call 6 (kernels/NOTES.md "Run 35"): u8 / u16 out of place, the default (narrow skewed
# kernel) against the 128-tile narrow kernel from 3001² to 16411².
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
S=3001x3001,4001x4001,5003x5003,6007x6007,8009x8009,10007x10007,12003x12003,16411x16411,2001x8003,8003x2001
for r in 1 2; do
  $B/bench_kernels --compare --reps 30 --types u8 --variant default,narrow-128-t256-b4-cm --shapes $S > $L/u8-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --types u16 --variant default,narrow-128-t512-b2-cm --shapes $S > $L/u16-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
echo "== x memcpy: file shape candidate | r1 r2"
for r in 1 2; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $7}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
pack
echo "total ${SECONDS}s"
