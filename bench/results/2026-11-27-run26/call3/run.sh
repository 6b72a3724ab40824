#!/usr/bin/env bash
# Run 26, call 3: the library's default out of place (and in place on squares) against memcpy on
# 12 random dense shapes per element size (256 MiB - 2 GiB, rows 16 - 2^21, drawn with Python's
# random.Random(26); kernels/NOTES.md "Run 26").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
declare -A S
S[u8]=18988x21658,150310x2009,5982x185849,1215783x827,1985x1052471,169059x9186,18264x19235,1258657x1220,275314x2079,1446970x197,9672x51090,18855x14466
S[u16]=239734x1798,2350x335272,306x2739119,1481x639640,7188x45475,38x3992394,72192x5773,1930x76324,159105x1820,1061512x645,15141x38518,49x2979961
S[f32]=41x2694289,1298424x68,699809x197,148676x2196,59660x7507,4051x34132,12846x5725,1515381x131,247608x985,15226x11871,2527x27635,2482x49643
S[f64]=117x327621,20855x1974,20x1797036,2345x58930,1039324x33,999180x93,10070x12835,52x1467740,2844x87908,88x720657,1721222x67,215908x358
S[c128]=6921x10389,89519x729,278x81390,439x43956,209x198504,17x2788092,72592x1545,196x106178,86x942783,24x3217775,48598x1258,186405x277
for t in u8 u16 f32 f64 c128; do
  timeout 200 $B/bench_kernels --compare --reps 10 --variant default --types $t --shapes ${S[$t]} > $O/logs/$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
# type shape: default x memcpy, geam x memcpy (where cuBLAS has one)
for t in u8 u16 f32 f64 c128; do
  awk -v t=$t '$1==t && $3=="cand" && $4=="default" {d[$2]=$7; v[$2]=$9; if(!($2 in o)){o[$2]=++n; k[n]=$2}}
               $1==t && $3=="cublas-geam" {g[$2]=$7}
               END{for(i=1;i<=n;i++) printf "%-5s %-16s %s%s geam %s\n", t, k[i], d[k[i]], (v[k[i]]=="ok"?"":" NOT VERIFIED"), (k[i] in g ? g[k[i]] : "-")}' $O/logs/$t.log
done | sort -k3,3n | tee $O/logs/table.txt
grep -c " ok" $O/logs/*.log; grep -l FAIL $O/logs/*.log
# The sanitizers with the larger SanitizerRandomLayouts (300 out of place, 150 in place).
.gpu-bundle/bin/xpose_gpu_tests --gtest_filter='*SanitizerRandomLayouts*' > $O/logs/sanrandom.log 2>&1
echo "SanitizerRandomLayouts rc=$?"; grep -E "out of place,|in place,|OK \]|FAILED" $O/logs/sanrandom.log
s0=$SECONDS; tests/gpu/sanitize.sh $B/xpose_gpu_tests > $O/logs/sanitize.log 2>&1
echo "sanitize rc=$? in $((SECONDS - s0)) s"
grep -E "^== |ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $O/logs/sanitize.log
