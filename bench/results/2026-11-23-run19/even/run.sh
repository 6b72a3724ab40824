#!/usr/bin/env bash
# Run 19, call 14: f32 in place at even n: the default (16- or 8-byte word kernels) against the
# rotated kernel (G = 32) and the strip kernel, rows on and off 128-byte lines.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
V=default,rot128-t1024-g32-p256,strip4-32w4-t512-g8-b2-l128-p256s
timeout 280 $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 16384x16384,16400x16400,16392x16392,16386x16386,16416x16416,20000x20000,24000x24000,30000x30000,30002x30002 > $O/logs/even.log 2>&1; echo "even rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-even.tgz -C $O logs
grep -E '^f32 ' $O/logs/even.log | grep -E 'cand' | awk '{printf "%-12s %-13s %-36s %7s %6s\n",$2,$3,$4,$6,$7}'
