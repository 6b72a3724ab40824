#!/usr/bin/env bash
# Run 40, call 1 (kernels/NOTES.md "Run 40"): the whole GPU suite on the reviewed code (b25c068,
# never run on a GPU); the lines rules on batches of tiny matrices; f64 lines forms below 12
# tiles an SM; c128 on rows on 256 bytes (the H200's gap to Zgeam); f64 20000x30000.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs1; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs1; }
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED" $L/suite.log | head -20; pack
for r in 1 2; do
  for t in f32 f64; do
    bk --reps 100 --types $t --variant default,pre39 --shapes 101x101 --batch 1000 > $L/tiny-$t-101b1000-r$r.log 2>&1
    bk --reps 100 --types $t --variant default,pre39 --shapes 65x33 --batch 4000 > $L/tiny-$t-65x33b4000-r$r.log 2>&1
    bk --reps 100 --types $t --variant default,pre39 --shapes 201x301 --batch 300 > $L/tiny-$t-201x301b300-r$r.log 2>&1
    bk --reps 100 --types $t --variant default,pre39 --shapes 17x17 --batch 20000 > $L/tiny-$t-17b20000-r$r.log 2>&1
    bk --reps 100 --types $t --variant default,pre39 --shapes 9x1001 --batch 2000 > $L/tiny-$t-9x1001b2000-r$r.log 2>&1
  done
  bk --reps 100 --types f64 --variant default,lines-32x64-x2-b8-cm,lines-64x32-x4-b8-cm,lines-64x64-x4-b6-cm,lines-64x64-x2-b6-cm \
    --shapes 1201x1201,1501x1501,1801x1801,2001x2001,2401x2401,1001x3001 > $L/f64small-r$r.log 2>&1
  bk --reps 100 --types f64 --variant default,lines-32x64-x2-b8-cm,lines-64x32-x4-b8-cm,lines-64x64-x4-b6-cm,lines-64x64-x2-b6-cm \
    --shapes 1001x1001 --batch 4 > $L/f64small-b4-r$r.log 2>&1
  bk --reps 20 --types c128 --variant default,tile-32x32-any-cm,lines-32x32-x4-b8-cm,lines-32x32-x2-b8-cm \
    --shapes 16384x16384,20000x30000,8192x8192 > $L/c128al-r$r.log 2>&1
  bk --reps 20 --types f64 --variant default,pre39 --shapes 20000x30000,19001x30001 > $L/f64wide-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
