#!/usr/bin/env bash
# Run 38, call 10 (kernels/NOTES.md "Run 38"), on an H100: the small f32 TMA rule with its upper
# end cut to 12 tiles an SM (after call 9) on fresh shapes, default against "pre38"; then the
# dispatch tests.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs10; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs10; }
S=2100x2100,2400x2400,2300x2600,2600x2600,2800x2800,1400x5000
for r in 1 2 3 4; do
  timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --types f32 --variant default,pre38 --shapes $S > $L/f32-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 2 --types f32 --variant default,pre38 --shapes 1600x1600 > $L/f32b2-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
timeout 120 $B/xpose_gpu_tests --gtest_filter='*SmallTileWindows*:*HighBandwidth*:*TmaVariants*:*RandomLayoutsOutOfPlace*' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure" $L/tests.log | head; pack
echo "total ${SECONDS}s"
