#!/usr/bin/env bash
# Run 40, call 2 (kernels/NOTES.md "Run 40"): held-out shapes for the f64 small lines rule and
# the c128 rule on 256-byte output rows (default against "pre40"); the whole GPU suite;
# memcheck / racecheck over the new f64 form.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs2; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs2; }
bk() { timeout 150 $B/bench_kernels --compare "$@"; }
for r in 1 2; do
  bk --reps 100 --types f64 --variant default,pre40 \
    --shapes 1301x1301,1601x1601,1901x1901,2201x2201,2451x2451,701x2001,2301x1701,801x801,901x901,1101x1101 > $L/f64-r$r.log 2>&1
  bk --reps 100 --types f64 --variant default,pre40 --shapes 1201x1201 --batch 3 > $L/f64-b3-r$r.log 2>&1
  bk --reps 100 --types f64 --variant default,pre40 --shapes 401x401 --batch 16 > $L/f64-b16-r$r.log 2>&1
  bk --reps 20 --types c128 --variant default,pre40 --shapes 32768x32768,12288x12288,24576x8192,10240x20480 > $L/c128big-r$r.log 2>&1
  bk --reps 100 --types c128 --variant default,pre40 --shapes 4096x4096,2048x2048 > $L/c128mid-r$r.log 2>&1
  bk --reps 100 --types c128 --variant default,pre40 --shapes 1024x1024 --batch 4 > $L/c128-b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
timeout 260 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure" $L/suite.log | head -20; pack
for tool in memcheck racecheck; do
  timeout 80 compute-sanitizer --tool $tool --print-limit 5 $B/bench_kernels --compare --reps 4 --types f64 --variant lines-32x64-x2-b8-cm,default --shapes 131x197,1201x1203 --batch 3 > $L/$tool-f64.log 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/$tool-f64.log) (${SECONDS}s)"
done
pack; echo "total ${SECONDS}s"
