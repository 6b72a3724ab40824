#!/usr/bin/env bash
# Run 38, call 8 (kernels/NOTES.md "Run 38"), on an H100: small f32 matrices on rows on 16 bytes
# and off 256 (where the skewed kernel runs), the TMA-load candidates against the default, by
# tiles an SM; four warmed rounds of 100. A discovery set; no dispatch change.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs8; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs8; }
V=default,tmald-64x32,tmald-64x64,tmald-128x64
S=1000x1000,1200x1200,1500x1500,1800x1800,2200x2200,2500x2500,3000x3000,4000x4000,6000x6000,1000x3000,3000x1000
for r in 1 2 3 4; do
  timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --types f32 --variant $V --shapes $S > $L/f32-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 4 --types f32 --variant $V --shapes 1000x1000,500x500 > $L/f32b4-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 8 --types f32 --variant $V --shapes 700x700 > $L/f32b8-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
