#!/usr/bin/env bash
# Run 26, call 5: the thin kernel with 4-byte words and flattened tall side (thin.cuh, candidate "thin") - tests, memcheck / racecheck, and
# against the library's default on thin shapes (short side m = 8 .. 256, 512 MiB, both
# orientations), call 3's weak shapes, and u8 on 12 random dense shapes (kernels/NOTES.md "Run 26").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
$B/xpose_gpu_tests --gtest_filter='*ThinCandidate*:*EveryVariantOutOfPlace*' > $O/logs/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "OK \]|FAILED|Failure" $O/logs/tests.log | head -20
timeout 240 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*' > $O/logs/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|OK \]|FAILED" $O/logs/memcheck.log | head
timeout 240 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*' > $O/logs/racecheck.log 2>&1
echo "racecheck rc=$? (${SECONDS}s)"; grep -E "RACECHECK SUMMARY|OK \]|FAILED" $O/logs/racecheck.log | head
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
declare -A W
W[u16]=38x3992394,49x2979961,306x2739119
W[f32]=1298424x68,1515381x131,41x2694289,699809x197
W[f64]=1721222x67,1039324x33,999180x93,20x1797036,117x327621
W[c128]=17x2788092,89519x729,186405x277
W[u8]=5966x53073,402885x1354,222x1394056,11280x54750,10175x78152,136445x5416,16056x47354,22249x16826,242049x1293,236415x2117,47962x14469,309x1162650
for t in u8 u16 f32 f64 c128; do
  L=""
  for m in 8 16 32 48 64 68 96 128 131 192 256; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    L="$L${L:+,}${m}x${n},${n}x${m}"
  done
  [ -n "${W[$t]:-}" ] && L="$L,${W[$t]}"
  timeout 250 $B/bench_kernels --compare --reps 10 --variant default,thin --types $t --shapes $L > $O/logs/$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
for t in u8 u16 f32 f64 c128; do
  awk -v t=$t '$1==t && $3=="cand" {x[$2","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "$2"/"$4; if(!($2 in o)){o[$2]=++n; k[n]=$2}}
               $1==t && $3=="cublas-geam" {g[$2]=$7}
               END{for(i=1;i<=n;i++) printf "%-5s %-16s default %s thin %s geam %s\n", t, k[i], x[k[i]",default"], (k[i]",thin" in x ? x[k[i]",thin"] : "-"), (k[i] in g ? g[k[i]] : "-");
                   if (bad!="") print "NOT VERIFIED:" bad}' $O/logs/$t.log
done | tee $O/logs/table.txt
