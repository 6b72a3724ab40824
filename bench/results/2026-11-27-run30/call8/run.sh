#!/usr/bin/env bash
# Run 30, call 8 (kernels/NOTES.md "Run 30, second part"): in place at one-stack pitches (c128
# n = 20480, f64 n = 40960) against neighbouring n; a pointer, no rule.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 240 $B/bench_kernels --reps 10 --types c128 --shapes 20480x20480,20000x20000,20992x20992 > $L/c128.log 2>&1
echo "c128 rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs
timeout 240 $B/bench_kernels --reps 10 --types f64 --shapes 40960x40960,40000x40000,41984x41984 > $L/f64.log 2>&1
echo "f64 rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs
grep -E "^(c128|f64) " $L/c128.log $L/f64.log | awk '{print $1, $2, $3, $4, $7, $9}' | sed 's|/tmp/logs/||'
echo "total ${SECONDS}s"
