#!/usr/bin/env bash
# Run 28, call 11 (kernels/NOTES.md "Run 28, second part"): call 10's u8 ranges held out at 384
# and 640 MiB.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
S=""
for bytes in 402653184 671088640; do
  for m in 160 176 180 184 200 240 244 248; do n=$(( (bytes / m) & ~3 )); S="$S${S:+,}${n}x${m}"; done
  n=$(( (bytes / 252) & ~3 )); S="$S,252x${n}"
done
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types u8 --shapes $S > $L/r4-u8-held.log 2>&1
echo "rc=$? (${SECONDS}s)"
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++c; key[c]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=c;i++){k=key[i]; printf "%-22s default %s thin %s nothin %s %s\n", k, x[k",default"], x[k",thin"], x[k",nothin"], (x[k",thin"] < 0.97*x[k",nothin"] ? "FAIL" : "")}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/r4-u8-held.log > $L/r4-u8-held.txt
tar czf $O/logs.tgz -C /tmp logs
cat $L/r4-u8-held.txt; echo "total ${SECONDS}s"
