#!/usr/bin/env bash
# Run 39, call 6 (kernels/NOTES.md "Run 39"): the dispatch tests after call 5's fixes, then the
# f32 lines kernel on inputs taller than 20000 rows in groups of rows (-g8k / -g12k / -g16k)
# against column order, the default and "pre39".
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs6; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs6; }
timeout 200 $B/xpose_gpu_tests --gtest_filter='*SmallTileWindows*:*HighBandwidth*:*EveryVariantOutOfPlace*:*Dispatch*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|line-aligned|Failure" $L/tests.log | head; pack
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
V=default,pre39,lines-64x128-x4-b6-cm,lines-64x128-x4-b6-g8k,lines-64x128-x4-b6-g12k,lines-64x128-x4-b6-g16k
for r in 1 2; do
  bk --reps 20 --types f32 --variant $V --shapes 18003x18003,20001x20001,24001x12001,27001x15001,32001x9001,40001x10001,60001x8001,100001x5003 > $L/f32-tall-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
