#!/usr/bin/env bash
# Run 40, call 3 (kernels/NOTES.md "Run 40"): where the c128 many-tile kernel starts on 256-byte
# output rows; the whole GPU suite and sanitize.sh on the code as it stands.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs3; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs3; }
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
V=default,pre40,tile-32x32-any-cm
for r in 1 2; do
  bk --reps 100 --types c128 --variant $V --shapes 2048x2048,2560x2560,2896x2896,3072x3072,3584x3584 > $L/c128-r$r.log 2>&1
  bk --reps 100 --types c128 --variant $V --shapes 1024x1024 --batch 6 > $L/c128-b6-r$r.log 2>&1
  bk --reps 100 --types c128 --variant $V --shapes 1024x1024 --batch 12 > $L/c128-b12-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
timeout 280 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure" $L/suite.log | head -20; pack
timeout 150 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|== .*exit" $L/sanitize.log; pack
echo "total ${SECONDS}s"
