#!/usr/bin/env bash
# Run 39, call 7 (kernels/NOTES.md "Run 39"): the final f32 rule's dispatch tests, then f64
# lines forms with read phases and more blocks an SM where f64 rows are off 16 bytes (a survey).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs7; }
timeout 200 $B/xpose_gpu_tests --gtest_filter='*HighBandwidthLines*:*EveryVariantOutOfPlace*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|line-aligned|Failure" $L/tests.log | head; pack
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
V=default,tile-64x64w8-any-cm,skew-32x64w16-b4-cm,lines-64x64-x2-b6-cm,lines-64x64-x4-b6-cm,lines-64x64-x8-b6-cm,lines-32x64-x2-b8-cm,lines-64x32-x4-b8-cm
for r in 1 2; do
  bk --reps 20 --types f64 --variant $V --shapes 16411x16411,12001x20003,16386x16386 > $L/f64-big-r$r.log 2>&1
  warm
  bk --reps 100 --types f64 --variant $V --shapes 2001x2001,3001x3001,4001x4001,6001x6001,8001x8001 > $L/f64-mid-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
