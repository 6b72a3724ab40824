#!/usr/bin/env bash
# Run 38, call 9 (kernels/NOTES.md "Run 38"), on an H100: the small f32 TMA rule on held-out
# shapes (default against "pre38"), then the full GPU suite and sanitize.sh on the final code.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs9; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs9; }
S=1300x1300,1700x1700,2000x2400,2700x2700,3100x3100,800x4000,4000x800,3300x3300,5000x5000,700x700,900x900
for r in 1 2 3 4; do
  timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --types f32 --variant default,pre38 --shapes $S > $L/f32-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 3 --types f32 --variant default,pre38 --shapes 1100x1100 > $L/f32b3-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 6 --types f32 --variant default,pre38 --shapes 600x600 > $L/f32b6-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $B/bench_kernels --compare --reps 4 --types f32 --variant default --shapes 1500x1500,1000x3000 --batch 2 > $L/memcheck-f32.log 2>&1
echo "memcheck f32 default rc=$?: $(grep -E 'ERROR SUMMARY' $L/memcheck-f32.log) $(awk '$3=="cand"{print $2, $4, $9}' $L/memcheck-f32.log | tr '\n' ' ')"
timeout 120 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|many-tile|Failure" $L/suite.log | head -20; pack
echo "total ${SECONDS}s"
