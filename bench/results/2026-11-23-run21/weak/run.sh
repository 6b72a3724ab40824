#!/usr/bin/env bash
# Run 21, call 8: the candidates on call 7's weak shapes (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
W=5003x100001,8191x60001,12007x40001,16411x45001
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,tile-128x128w16,skew-128x64w16,rot-128x128-t1024-b1-cm,rot-128x128-t512-b3-cm,narrow-128-t256-b4-cm,narrow-256-t1024-b1-cm,narrow-256-t512-b2-cm,narrow-256-t512-b2-cm-rot,narrow-128-t256-b4-sweep --types u8 --shapes $W > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,tile-64x64w16,skew-64x64w16,rot-128x128-t1024-b1-cm,rot-128x128-t512-b3-cm,rot-128x128-t512-b3,narrow-128-t512-b2-cm,narrow-128-t512-b2-cm-rot --types u16 --shapes $W > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,tile-64x64w8,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-g16k-p256 --types f32 --shapes 100000x5024,65536x8192,60000x16416,16384x16384 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run21-weak.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u8.log $O/logs/u16.log $O/logs/f32.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for t in u8 u16 f32; do grep -E "^$t " $O/logs/$t.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
