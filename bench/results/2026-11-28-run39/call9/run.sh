#!/usr/bin/env bash
# Run 39, call 9 (kernels/NOTES.md "Run 39"): the whole GPU suite on the final dispatch; the goal
# shapes' snapshot on this H200; c128 lines forms with read phases (a survey).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs9; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs9; }
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
V=default,tile-32x32-any-cm,lines-32x32-x2-b8-cm,lines-32x32-x4-b8-cm,lines-32x64-x4-b6-cm,lines-64x32-x4-b6-cm
for r in 1 2; do
  bk --reps 20 --types c128 --variant $V --shapes 16411x16411,12001x20003 > $L/c128-big-r$r.log 2>&1
  warm
  bk --reps 100 --types c128 --variant $V --shapes 1201x1201,1501x1501,1801x1801,2201x2201,3001x3001 > $L/c128-mid-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 200 $B/bench_kernels --compare --reps 20 --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goals.log 2>&1
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, $6, $7}' $L/goals.log | tee $L/goals.txt
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|line-aligned|many-tile|Failure" $L/suite.log | head -20; pack
echo "total ${SECONDS}s"
