#!/usr/bin/env bash
# Run 36, call 8 (kernels/NOTES.md "Run 36"): u8 tiny shapes, the default against the same list
# through the candidate path (nocopy) and the chosen kernel's own slot, 1000 runs, three rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs8; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs8; }
bk() { timeout 120 $B/bench_kernels --compare --reps 1000 "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
for r in 1 2 3; do
  warm
  bk --types u8 --variant default,nocopy,tile-128x128w16,tile-32x32w1-any --shapes 256x2560,550x550,1024x1024 > $L/u8-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
for r in 1 2 3; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' | tee $L/table.txt
grep -E "^u8 +256x2560" $L/u8-r1.log
pack
echo "total ${SECONDS}s"
