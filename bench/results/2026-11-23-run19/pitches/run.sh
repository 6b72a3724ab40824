#!/usr/bin/env bash
# Run 19, call 9: which input pitches make the skewed kernel's column-major order lose: f32 at
# sides around powers of two and elsewhere, column-major against groups of 64 and 256 tile rows;
# f64 at 16383^2 and 32767^2.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
F32=default,skew-64x64w16-b4-g64-p256,skew-64x64w16-b4-g256-p256
F64=default,skew-32x64w16-b4-g64,skew-32x64w16-b4-g256
timeout 280 $B/bench_kernels --compare --reps 20 --variant $F32 --types f32 --shapes 16383x16383,16389x16389,24575x24575,30000x30000,32700x32700,32760x32760,32767x32767,32749x32749 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 200 $B/bench_kernels --compare --reps 20 --variant $F64 --types f64 --shapes 16383x16383,32767x32767 > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-pitches.tgz -C $O logs
for f in f32 f64; do echo "== $f"; grep -E '^(f32|f64) ' $O/logs/$f.log | grep -E 'memcpy|cand ' | awk '{printf "%-4s %-12s %-4s %-28s %6s\n",$1,$2,substr($3,1,7),$4,$7}'; done
