#!/usr/bin/env bash
# Run 21, call 7: survey of wide shapes (few rows, long rows) and tall aligned shapes with the
# library's defaults (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
W=5003x100001,8191x60001,12007x40001,16411x45001,20011x45001
for t in f32 f64 c128 u16 u8; do
  S=$W; [ $t = f32 ] && S=$W,60000x16416,100000x5024,16384x16384; [ $t = u8 -o $t = u16 ] && S=$W,65536x16384,16384x16384
  timeout 90 $B/bench_kernels --compare --reps 10 --variant default --types $t --shapes $S > $O/logs/$t.log 2>&1; echo "$t rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run21-wide.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f*.log $O/logs/c*.log $O/logs/u*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for t in f32 f64 c128 u16 u8; do grep -E "^$t " $O/logs/$t.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,($3=="cand"?"oop":"ip"),$7,($9=="ok"?"":"!")}'; done | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
