#!/usr/bin/env bash
# Run 39, call 2 (kernels/NOTES.md "Run 39"): the line-aligned kernel with fewer registers (more
# blocks an SM, reads in phases) and the skewed f32 kernel with more blocks an SM; f32 only.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs2; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs2; }
CO=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
[ -n "$CO" ] && $CO --dump-resource-usage $B/bench_kernels 2>/dev/null | grep -A1 "lines_kernel\|skew_kernel" \
  | grep -o "[LS][a-z]*ConfigILi4ELi[0-9]*ELi[0-9]*ELi[0-9]*ELi[0-9]*ELi[0-9]*ELi[0-9]*E\|REG:[0-9]*\|LOCAL:[0-9]*" \
  | paste - - - | sort -u > $L/regs.txt
cat $L/regs.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*TileGridPast65535*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head; pack
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
V4=default,lines-64x64-b4-cm,lines-64x64-b5-cm,lines-64x64-b6-cm,lines-64x64-b8-cm,lines-64x64-x2-b4-cm,lines-64x64-x2-b6-cm,lines-64x64-x2-b8-cm,lines-64x64-x4-b8-cm,lines-64x64-t512-b4-cm,lines-64x64-t512-x2-b4-cm,skew-64x64w16-b5-cm-p256,skew-64x64w16-b6-cm-p256,skew-64x64w16-b8-cm-p256
# Large shapes, rows off 16 bytes (c128: off 32), two rounds of 20.
for r in 1 2; do
  for t in f32:$V4; do
    IFS=: read -r ty v <<< "$t"
    sh=16411x16411,12001x20003; [ $ty = f32 ] && sh=$sh,16386x16386
    bk --reps 20 --types $ty --variant $v --shapes $sh > $L/$ty-big-r$r.log 2>&1
  done
  echo "big round $r (${SECONDS}s)"; pack
done
# Small shapes (L2-resident), three warmed rounds of 100, f32 only.
S=1001x1001,1500x1500,2001x2001,3001x3001,700x2000
for r in 1 2 3; do
  warm
  bk --reps 100 --types f32 --variant $V4,tmald-64x32 --shapes $S > $L/f32-small-r$r.log 2>&1
  echo "small round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt | head -150
echo "total ${SECONDS}s"
