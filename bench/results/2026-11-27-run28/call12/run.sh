#!/usr/bin/env bash
# Run 28, call 12 (kernels/NOTES.md "Run 28, second part"): the record on the final code with the
# round-4 block ranges: device_run.sh; default, thin and nothin at the new block points.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 330 tests/gpu/device_run.sh $B $L/record > $L/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"
S=""; for m in 98 100 104 152 156 160; do n=$(( (268435456 / m) & ~3 )); S="$S${S:+,}${m}x${n}"; done
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types u16 --shapes $S > $L/blk-u16.log 2>&1
S="$(( (536870912 / 160) & ~3 ))x160,$(( (536870912 / 200) & ~3 ))x200,252x$(( (536870912 / 252) & ~3 ))"
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types u8 --shapes $S > $L/blk-u8.log 2>&1
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++c; key[c]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=c;i++){k=key[i]; printf "%-22s default %s thin %s nothin %s\n", k, x[k",default"], x[k",thin"], x[k",nothin"]}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/blk-u16.log $L/blk-u8.log > $L/blk-table.txt
tar czf $O/logs.tgz -C /tmp logs
echo "== record"; cat $L/record.log
echo "== block points"; cat $L/blk-table.txt; echo "total ${SECONDS}s"
