#!/usr/bin/env bash
# Run 40, call 5 (kernels/NOTES.md "Run 40"): held-out shapes for the f64 line-aligned rule on
# 256-byte output rows (default against "pre40"); the whole GPU suite on the code with all of run
# 40's rules; end-to-end transposes through the GPU where they run, verified element by element.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs5; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs5; }
bk() { timeout 200 $B/bench_kernels --compare "$@"; }
for r in 1 2; do
  bk --reps 20 --types f64 --variant default,pre40 --shapes 10240x15000,16384x24008,4096x6000,18432x18440,14336x9001,6144x10001 > $L/f64off-r$r.log 2>&1
  bk --reps 20 --types f64 --variant default,pre40 --shapes 16384x16384,8192x8192,12288x16384,4096x4096,20000x16384 > $L/f64on-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
D=/dev/shm/x; mkdir -p $D
for c in float64:8192x12008:512MiB complex128:6144x8192:1GiB complex128:3001x2003:64MiB float64:2001x2401:32MiB complex128:4x1024x1008:128MiB; do
  IFS=: read -r t sh gm <<< "$c"
  $B/xpose generate $D/a.h5:/m --shape $sh --dtype $t -f -q
  timeout 60 $B/xpose transpose $D/a.h5:/m $D/b.h5:/m --backend cuda --gpu-mem $gm --force > $L/e2e-$t-$sh.log 2>&1
  rc=$?
  timeout 60 $B/xpose verify $D/a.h5:/m $D/b.h5:/m >> $L/e2e-$t-$sh.log 2>&1
  echo "e2e $t $sh gpu-mem $gm: transpose rc=$rc verify rc=$? (${SECONDS}s): $(tail -1 $L/e2e-$t-$sh.log)"
  rm -f $D/a.h5 $D/b.h5
done
pack
timeout 280 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure" $L/suite.log | head -20; pack
echo "total ${SECONDS}s"
