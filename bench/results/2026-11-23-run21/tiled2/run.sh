#!/usr/bin/env bash
# Run 21, call 10: the tiled kernel against the skewed default where output rows are on 32 bytes
# but off 256, by height (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
S=70008x8192,80008x8192,90008x8192,100008x10000,130008x8192,200008x5000,100000x5024
for run in 1 2; do
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,tile-64x64w8 --types f32 --shapes $S > $O/logs/f32-$run.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run21-tiled2.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f*.log $O/logs/c*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for t in f32; do for run in 1 2; do grep -E "^$t " $O/logs/$t-$run.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,($4=="default"?"dflt":"tile"),$7,($9=="ok"?"":"!")}'; done; done | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
