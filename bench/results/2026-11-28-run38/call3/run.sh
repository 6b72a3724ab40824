#!/usr/bin/env bash
# Run 38, call 3 (kernels/NOTES.md "Run 38"): where the new f64 / c128 candidates start to lead
# (tiles an SM), and whether H100s gain from them. A discovery set; no dispatch change yet.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs3; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs3; }
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
V8=default,tile-64x64w8-any-cm,tile-32x32w8-any-cm
V16=default,tile-32x32-any-cm
S8=4001x4001,7001x7001,8001x8001,9001x9001,10001x10001,12001x12001,4001x16001,16001x4001,16411x16411,12001x20003
S16=1201x1201,1601x1601,1801x1801,2201x2201,2401x2401,1001x4001,4001x1001,16411x16411,12001x20003
for r in 1 2 3; do
  bk --reps 30 --types f64 --variant $V8 --shapes $S8 > $L/f64-r$r.log 2>&1
  bk --reps 30 --batch 4 --types f64 --variant $V8 --shapes 4001x4001,6001x6001 > $L/f64b4-r$r.log 2>&1
  bk --reps 50 --types c128 --variant $V16 --shapes $S16 > $L/c128-r$r.log 2>&1
  bk --reps 50 --batch 4 --types c128 --variant $V16 --shapes 1001x1001,701x701 > $L/c128b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
