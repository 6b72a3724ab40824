#!/usr/bin/env bash
# Run 40, call 4 (kernels/NOTES.md "Run 40"): the dispatch tests on the c128 count 48; the goal
# snapshot on this H200; f64 on output rows on 256 bytes with the input's off them (a survey).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs4; }
bk() { timeout 200 $B/bench_kernels --compare "$@"; }
timeout 120 $B/xpose_gpu_tests --gtest_filter='CudaKernels.HighBandwidth*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure|^\[       OK" $L/tests.log | head; pack
V=default,tile-64x64w8-any-cm,lines-64x64-x4-b6-cm,lines-64x64-x2-b6-cm,tile-64x64w16-b2
for r in 1 2; do
  bk --reps 20 --types f64 --variant $V --shapes 20000x30000,16384x16400,12288x20008,24576x12296,8192x8200,16384x16411 > $L/f64al-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
bk --reps 20 --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goals.log 2>&1
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, $6, $7}' $L/goals.log | tee $L/goals.txt
pack; echo "total ${SECONDS}s"
