#!/usr/bin/env bash
# Run 26, call 6: the record on the new dispatch (thin kernel first for thin shapes): GPU suite
# (random layouts with coverage), sanitizers, bench_kernels goal table; default and thin on call
# 5's thin shapes and on 10 held-out random thin shapes per element size (Python
# random.Random(27)); CLI tests with --backend cuda at 1 and 2 ranks (kernels/NOTES.md "Run 26").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"; cat $O/logs/record.log
grep -E "out of place,|in place," $O/logs/record/tests.log
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
declare -A H
H[u8]=9844627x67,176220462x2,35496435x12,190x1821649,1496662x198,2251073x133,14131567x53,1037937x263,43x8864532,9724318x68
H[u16]=14x10993304,1789222x212,70005655x4,295x657004,256872365x2,35x6198260,12098873x17,18238072x12,15610195x11,68742746x4
H[f32]=3x44070483,11x6604266,2983766x32,5084627x20,188x804153,6126946x32,2x86741696,25328902x8,33x2326612,63541350x2
H[f64]=1318437x82,9191012x5,4074725x13,289x187275,8x13657210,124x513691,145x527874,9x7363456,17x6247665,119x373853
H[c128]=154371x293,19505425x3,2x19487822,3x8549339,201x94145,70x510778,309322x200,245027x141,211x108148,1212844x30
for t in u8 u16 f32 f64 c128; do
  L=""
  for m in 8 16 32 48 64 68 96 128 131 192 256; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    L="$L${L:+,}${m}x${n},${n}x${m}"
  done
  L="$L,${H[$t]}"
  timeout 250 $B/bench_kernels --compare --reps 10 --variant default,thin --types $t --shapes $L > $O/logs/$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
for t in u8 u16 f32 f64 c128; do
  awk -v t=$t '$1==t && $3=="cand" {x[$2","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "$2"/"$4; if(!($2 in o)){o[$2]=++n; k[n]=$2}}
               $1==t && $3=="cublas-geam" {g[$2]=$7}
               END{for(i=1;i<=n;i++) printf "%-5s %-16s default %s thin %s geam %s\n", t, k[i], x[k[i]",default"], (k[i]",thin" in x ? x[k[i]",thin"] : "-"), (k[i] in g ? g[k[i]] : "-");
                   if (bad!="") print "NOT VERIFIED:" bad}' $O/logs/$t.log
done > $O/logs/table.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 300 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$? (${SECONDS}s)") | tee -a $O/logs/summary.txt
tail -15 $O/logs/cli.log
cat $O/logs/table.txt
