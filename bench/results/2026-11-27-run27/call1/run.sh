#!/usr/bin/env bash
# Run 27, call 1 (kernels/NOTES.md "Run 27"): the record on run 26's review commit plus the
# shifted wide words (device_run.sh: GPU suite, sanitizers, goal table); memcheck and racecheck
# on ThinCandidate; u8 / u16 thin shapes with the wide rows off 4 bytes, default (shifted words)
# against thin-elemwide; default against thin at m = 20 .. 240 (the rule on m modulo the tile).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
timeout 280 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*' > $O/logs/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|FAILED" $O/logs/memcheck.log | head -3
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*' > $O/logs/racecheck.log 2>&1
echo "racecheck rc=$? (${SECONDS}s)"; grep -E "RACECHECK SUMMARY|FAILED" $O/logs/racecheck.log | head -3
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
table() {  # $1 type, $2 log, $3 $4 the two variants
  awk -v t=$1 -v a=$3 -v b=$4 '$1==t && $3=="cand" {x[$2","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "$2"/"$4; if(!($2 in o)){o[$2]=++n; k[n]=$2}}
    END{for(i=1;i<=n;i++) printf "%-5s %-16s %s %s %s %s\n", t, k[i], a, x[k[i]","a], b, (k[i]","b in x ? x[k[i]","b] : "-");
        if (bad!="") print "NOT VERIFIED:" bad}' $2
}
# Wide rows off 4 bytes: long sides made odd.
for t in u8 u16; do
  L=""
  for m in 3 5 12 24 64 96 131; do
    n=$(( (536870912 / (m * ${SZ[$t]})) | 1 ))
    L="$L${L:+,}${m}x${n},${n}x${m}"
  done
  timeout 100 $B/bench_kernels --compare --reps 10 --variant default,thin-elemwide --types $t --shapes $L > $O/logs/off4-$t.log 2>&1
  echo "off4 $t rc=$? (${SECONDS}s)"
done
for t in u8 u16; do table $t $O/logs/off4-$t.log default thin-elemwide; done | tee $O/logs/off4-table.txt
# Default against thin past the thin limits (run 26's prepared next/run.sh).
for t in u8 u16 f32 f64 c128; do
  L=""
  for m in 20 24 28 33 40 56 72 80 100 112 136 160 200 240; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    L="$L${L:+,}${m}x${n},${n}x${m}"
  done
  timeout 100 $B/bench_kernels --compare --reps 10 --variant default,thin --types $t --shapes $L > $O/logs/mod-$t.log 2>&1
  echo "mod $t rc=$? (${SECONDS}s)"
done
for t in u8 u16 f32 f64 c128; do table $t $O/logs/mod-$t.log default thin; done > $O/logs/mod-table.txt
echo "== record"; cat $O/logs/record.log
grep -E "out of place,|in place," $O/logs/record/tests.log
echo "== mod table"; cat $O/logs/mod-table.txt
echo "== off4 table"; cat $O/logs/off4-table.txt
echo "total ${SECONDS}s"
