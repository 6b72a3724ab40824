#!/usr/bin/env bash
# Prepared in run 26, not run: the library against the thin kernel at short sides between and
# past run 26's measured points, both orientations, every element size (512 MiB each), to test a
# dispatch rule on m modulo the default kernels' tiles (kernels/NOTES.md, "Run 26", "Next").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
for t in u8 u16 f32 f64 c128; do
  L=""
  for m in 20 24 28 33 40 56 72 80 100 112 136 160 200 240; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    L="$L${L:+,}${m}x${n},${n}x${m}"
  done
  timeout 200 $B/bench_kernels --compare --reps 10 --variant default,thin --types $t --shapes $L > $O/logs/$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
for t in u8 u16 f32 f64 c128; do
  awk -v t=$t '$1==t && $3=="cand" {x[$2","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "$2"/"$4; if(!($2 in o)){o[$2]=++n; k[n]=$2}}
               END{for(i=1;i<=n;i++) printf "%-5s %-16s default %s thin %s\n", t, k[i], x[k[i]",default"], (k[i]",thin" in x ? x[k[i]",thin"] : "-");
                   if (bad!="") print "NOT VERIFIED:" bad}' $O/logs/$t.log
done | tee $O/logs/table.txt
