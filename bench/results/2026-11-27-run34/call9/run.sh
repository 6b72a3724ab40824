#!/usr/bin/env bash
# Run 34, call 9 (kernels/NOTES.md "Run 34"): f64 in place, batches at small n, the strip kernel
# against the 32 x 32 pairs, three rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
V=strip4-32w8-t512-g64-b2-l128-p256s,tile-32w8-row
for r in 1 2 3; do
  $B/bench_kernels --compare --reps 30 --batch 2 --types f64 --variant $V --shapes 2400x2400 > $L/b2-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 4 --types f64 --variant $V --shapes 1650x1650,1750x1750,1850x1850,2000x2000 > $L/b4-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 8 --types f64 --variant $V --shapes 1300x1300,1650x1650,1850x1850 > $L/b8-r$r.log 2>&1
  $B/bench_kernels --compare --reps 30 --batch 16 --types f64 --variant $V --shapes 1000x1000,1300x1300,1750x1750,2000x2000 > $L/b16-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
echo "== f64 in place GB/s: batch shape candidate | r1 r2 r3"
for r in 1 2 3; do for f in $L/b*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand-inplace"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
echo "total ${SECONDS}s"
