#!/usr/bin/env bash
# Run 41, call 9 (kernels/NOTES.md "Run 41"): a survey for the next session: f32 on 64 KiB output
# rows, c128 on 128 KiB output rows, several forms each, two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs9; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs9; }
bk() { timeout 200 $B/bench_kernels --compare "$@"; }
V32=default,lines-64x128-x2-b6-cm,lines-64x128-x4-b7-cm,lines-64x128-x8-b6-cm,tile-64x64w8,tma-64x64,tma-64x128,tmald-64x64,tmald-128x64,skew-64x64w16-b4-cm-p256
V128=default,tile-16x16-t128,tma-32x32,tmald-16x32,lines-32x64-x4-b6-cm,skew-32x32-b4-cm,tile-32x32-any
for r in 1 2; do
  bk --reps 20 --types f32 --variant $V32 --shapes 16384x4096,16384x8192,16384x12288,16384x16384,16384x24576,16384x32768,16384x65536 > $L/f32-r$r.log 2>&1
  bk --reps 20 --types c128 --variant $V128 --shapes 8192x4096,8192x8192,8192x16384,8192x32768 > $L/c128-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6} $3=="memcpy"&&$2!="shape"{print b, $2, "memcpy", r, $7}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
