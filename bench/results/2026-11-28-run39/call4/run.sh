#!/usr/bin/env bash
# Run 39, call 4 (kernels/NOTES.md "Run 39"): the 64 x 128 lines form's neighbours, large and small
# sizes; f32 only.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs4; }
CO=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
[ -n "$CO" ] && $CO --dump-resource-usage $B/bench_kernels 2>/dev/null | grep -A1 "lines_kernel\|skew_kernel" \
  | grep -o "[LS][a-z]*ConfigILi4ELi[0-9]*ELi[0-9]*ELi[0-9]*ELi[0-9]*ELi[0-9]*ELi[0-9]*E\|REG:[0-9]*\|LOCAL:[0-9]*" \
  | paste - - - | sort -u > $L/regs.txt
cat $L/regs.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head; pack
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
V4=default,lines-64x128-x4-b6-cm,lines-64x128-x2-b6-cm,lines-64x128-x8-b6-cm,lines-64x128-x4-b5-cm,lines-64x128-x4-b7-cm,lines-64x128-x4-b6,lines-32x128-x2-b6-cm
# Large shapes, rows off 16 bytes, two rounds of 20.
for r in 1 2; do
  bk --reps 20 --types f32 --variant $V4 --shapes 16411x16411,12001x20003,16386x16386,20001x20001,10007x30011 > $L/f32-big-r$r.log 2>&1
  echo "big round $r (${SECONDS}s)"; pack
done
# By 64 x 128 tiles an SM (132 SMs): 601² 0.38, 801² 0.69, 1001² 0.97, 1500² 2.2, 700x2000
# 1.3, 2000x700 1.45, four of 700² 2.0; three warmed rounds of 100.
S=601x601,801x801,1001x1001,1500x1500,700x2000,2000x700
for r in 1 2 3; do
  warm
  bk --reps 100 --types f32 --variant $V4 --shapes $S > $L/f32-small-r$r.log 2>&1
  bk --reps 100 --batch 4 --types f32 --variant $V4 --shapes 700x700 > $L/f32-b4-r$r.log 2>&1
  echo "small round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt | head -150
echo "total ${SECONDS}s"
