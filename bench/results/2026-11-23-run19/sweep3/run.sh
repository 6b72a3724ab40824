#!/usr/bin/env bash
# Run 19, call 12: the capped column sweep (32000 rows) against column-major on thin tall inputs.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
V=default,skew-64x64w16-b4-sweep-p256,skew-32x64w16-b4-sweep,skew-32x32-b4-sweep
timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 60000x8191,60000x4099,100000x5003,40000x12007 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types f64 --shapes 40000x12007,100000x5003 > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types c128 --shapes 60000x8191,40000x12007 > $O/logs/c128.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-sweep3.tgz -C $O logs
for f in f32 f64 c128; do echo "== $f"; grep -E '^(f32|f64|c128) ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-28s %6s\n",$1,$2,$4,$7}'; done
