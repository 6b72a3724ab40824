#!/usr/bin/env bash
# Run 30, call 7 (kernels/NOTES.md "Run 30, second part"): the records kernels with a one-wave
# grid (-1w) against the default (at most 4096 blocks), u8 / u16, m = 1-16, both orientations;
# set A (512 MiB, two rounds), set B (384 MiB, long side 4 mod 8, one round).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2)
shapes() {
  local t=$1 bytes=$2 o=$3 mod=$4 S="" m n
  for m in $(seq 1 16); do
    n=$(( (bytes / (m * ${SZ[$t]})) & ~7 )); n=$(( n + mod ))
    if [ $o = rows ]; then S="$S${S:+,}${m}x${n}"; else S="$S${S:+,}${n}x${m}"; fi
  done
  echo "$S"
}
run() {
  local log=$1 t=$2 o=$3 sh=$4 v=default,records-1w
  [ $o = cols ] && v=default,records-1w,records-gs-1w
  timeout 150 $B/bench_kernels --compare --reps 10 --variant $v --types $t --shapes $sh > $L/$log.log 2>&1
  echo "$log rc=$? (${SECONDS}s)"
  tar czf $O/logs.tgz -C /tmp logs  # kept after each bench, in case the call runs out of time
}
for t in u16 u8; do
  for o in rows cols; do
    for r in 1 2; do run A$r-$t-$o $t $o "$(shapes $t 536870912 $o 0)"; done
    run B-$t-$o $t $o "$(shapes $t 402653184 $o 4)"
  done
done
tar czf $O/logs.tgz -C /tmp logs
for f in $L/A1-*.log $L/A2-*.log $L/B-*.log; do
  echo "== $(basename $f .log): m, then default / -1w (/ -gs-1w), x memcpy"
  awk '$3=="cand"{split($2,a,"x"); m=(a[1]<a[2]?a[1]:a[2]); r[m]=r[m] " " $7; if(!(m in seen)){seen[m]=1; order[++n]=m}} END{for(i=1;i<=n;i++) printf "%s:%s  ", order[i], r[order[i]]; print ""}' $f
done
echo "total ${SECONDS}s"
