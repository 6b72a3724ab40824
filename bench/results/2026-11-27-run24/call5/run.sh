#!/usr/bin/env bash
# Run 24, call 5: the tiled kernels on column bands (-bandNk) against the defaults over the
# tiled kernels' shapes, three runs each (kernels/NOTES.md, "Run 24").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
S=32768x32768,24576x24576,16384x16384,12288x12288,32768x16384,16384x32768
V32=default,tile-64x64w8-band16k,tile-64x64w8-band8k,tile-64x64w8-band4k
V64=default,tile-32x64w8-b3-band16k,tile-32x64w8-b3-band8k,tile-32x64w8-b3-band4k,tile-32x64w8-b3-band2k
V128=default,tile-16x16-band16k,tile-16x16-band8k,tile-16x16-band4k,tile-16x16-band2k
for rep in 1 2 3; do
  timeout 120 $B/bench_kernels --compare --reps 20 --variant $V32 --types f32 --shapes $S > $O/logs/f32-$rep.log 2>&1; echo "f32 $rep rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
  timeout 150 $B/bench_kernels --compare --reps 20 --variant $V64 --types f64 --shapes $S,20000x30000 > $O/logs/f64-$rep.log 2>&1; echo "f64 $rep rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
  timeout 150 $B/bench_kernels --compare --reps 20 --variant $V128 --types c128 --shapes $S,20000x30000 > $O/logs/c128-$rep.log 2>&1; echo "c128 $rep rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
tar czf $O/run24-call5.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f*.log $O/logs/c128*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for t in f32 f64 c128; do for rep in 1 2 3; do grep -E "^$t " $O/logs/$t-$rep.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done; done | sed 's/tile-[0-9x]*w*[0-9]*-\(b3-\)*//' | awk '{split($3,kv,"="); k=$1" "$2" "kv[1]; a[k]=a[k]" "kv[2]; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
