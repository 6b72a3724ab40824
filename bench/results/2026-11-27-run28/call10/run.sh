#!/usr/bin/env bash
# Run 28, call 10 (kernels/NOTES.md "Run 28, second part"): default, thin and nothin in the gaps
# of the block classes' ranges, set A (512 MiB) and set B (384 MiB).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2)
shapes() {  # $1 type, $2 bytes, $3 class (a4 / odd), $4 rows / cols, then m
  local t=$1 bytes=$2 par=$3 o=$4; shift 4; local S="" m n
  for m in "$@"; do
    n=$(( bytes / (m * ${SZ[$t]}) ))
    case $par in a4) n=$(( n & ~3 ));; odd) n=$(( n | 1 ));; esac
    if [ $o = rows ]; then S="$S${S:+,}${m}x${n}"; else S="$S${S:+,}${n}x${m}"; fi
  done
  echo "$S"
}
run() { timeout 120 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types $2 --shapes $3 > $L/r4-$1.log 2>&1; echo "$1 rc=$? (${SECONDS}s)"; }
A=536870912; H=402653184
run u8-cols-A u8 "$(shapes u8 $A a4 cols $(seq 152 8 256))"
run u8-cols-B u8 "$(shapes u8 $H a4 cols 156 172 196 228 252)"
run u8-rows-A u8 "$(shapes u8 $A a4 rows 252 256)"
run u16-rows-a4-A u16 "$(shapes u16 $A a4 rows 98 104 112 120 128 152 160 176 192 208 224 240 256)"
run u16-rows-a4-B u16 "$(shapes u16 $H a4 rows 100 116 122 156 200 250)"
run u16-rows-o4-A u16 "$(shapes u16 $A odd rows 64 72 80 88 96 104 112 120 128 144 160 192 256)"
run u16-rows-o4-B u16 "$(shapes u16 $H odd rows 66 90 110 130 150)"
for f in $L/r4-*.log; do
  n=$(basename $f .log)
  awk -v set=$n '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++c; key[c]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
    END{for(i=1;i<=c;i++){k=key[i]; printf "%-16s %-22s default %s thin %s nothin %s\n", set, k, x[k",default"], x[k",thin"], x[k",nothin"]}
        if(bad!="") print "NOT VERIFIED:" bad}' $f
done > $L/r4-table.txt
tar czf $O/logs.tgz -C /tmp logs
cat $L/r4-table.txt; echo "total ${SECONDS}s"
