#!/usr/bin/env bash
# Run 25, call 3: u16 in place, guarded edge pairs against the default on held-out sizes
# (kernels/NOTES.md, "Run 25").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
S=""
for n in 16404 16408 16416 16420 16428 16440 16448 24600 24608 24620 24640 12316 12328; do S="$S${S:+,}${n}x${n}"; done
for run in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 10 --variant default,narrow128-t512-b2-g8-seq-wedge --types u16 --shapes $S > $O/logs/u16-$run.log 2>&1
  echo "u16 run $run rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
for r in 1 2; do grep -E ' cand-inplace ' $O/logs/u16-$r.log | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done |
  sed 's/narrow128-t512-b2-g8-seq-wedge/wedge/' |
  awk '{k=$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) {split(key[i],d,"x"); printf "u16 n=%s w=%d%s\n", d[1], d[1]%128, a[key[i]]}}'
