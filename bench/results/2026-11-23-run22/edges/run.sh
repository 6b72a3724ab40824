#!/usr/bin/env bash
# Run 22, call 8 (measurement only): the narrow skewed kernel against the narrow / tiled defaults
# where output rows are on 16 bytes, by the share of partial tiles (kernels/NOTES.md, "Run 22").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
S=16384x16411,16384x5003,100000x5003,200000x1001,60000x16411,8192x100001,16400x16400,16400x5000,16384x16384,65536x16384
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,nskew-256x256-t512-b2-n3-sweep --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,nskew-128x256-t512-b2-n3-sweep --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run22-edges.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u16.log $O/logs/u8.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u8 u16; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/nskew-//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
