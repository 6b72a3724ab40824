#!/usr/bin/env bash
# Run 41, call 10 (kernels/NOTES.md "Run 41"): the f32 rule on output rows 64 KiB apart (input
# rows of 48 KiB or more) held out (default / pre41 / lines x2 / Sgeam), two rounds of 20; the f32
# goal shapes; the whole GPU suite in four shards; sanitize.sh.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs10; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs10; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
V=default,pre41,lines-64x128-x2-b6-cm
IN=16384x14336,16384x20480,16384x28672,16384x40960,16384x49152,16384x12352
OUTS=16384x10240
G=16384x16384,32768x32768,20000x30000,16411x16411
for r in 1 2; do
  bk --reps 20 --types f32 --variant $V --shapes $IN > $L/in-r$r.log 2>&1
  bk --reps 20 --types f32 --variant $V --shapes $OUTS > $L/out-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,pre41 --shapes $G > $L/goals-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6} $3=="memcpy"&&$2!="shape"{print b, $2, "memcpy", r, $7}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
for i in 0 1 2 3; do
  GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 240 $B/xpose_gpu_tests > $L/suite-$i.log 2>&1 &
done
wait
for i in 0 1 2 3; do
  echo "shard $i: $(grep -cE '^\[       OK' $L/suite-$i.log) ok, $(grep -E '^\[  (PASSED|FAILED) ' $L/suite-$i.log | tr '\n' ' ')"
done
grep -hE "^\[  FAILED|Failure" $L/suite-*.log | head
grep -h "HighBandwidthLines" $L/suite-*.log
echo "suite ok total: $(cat $L/suite-*.log | grep -cE '^\[       OK') (${SECONDS}s)"
pack
timeout 60 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|== .*exit" $L/sanitize.log; pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
