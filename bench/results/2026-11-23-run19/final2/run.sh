#!/usr/bin/env bash
# Run 19, call 16: the record of the final dispatch: device_run.sh (GPU tests, sanitizers, the
# full bench_kernels table), then the in-place defaults at even n off 256 bytes (f32, f64, c128).
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
tests/gpu/device_run.sh .gpu-bundle/bin "$O/logs" 2>&1 | tail -33
timeout 250 .gpu-bundle/bin/bench_kernels --compare --reps 20 --variant default --shapes 16384x16384,16400x16400,16392x16392,16386x16386,30000x30000 > $O/logs/even.log 2>&1; echo "even rc=$?"
grep -E '^(f32|f64|c128) ' $O/logs/even.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-13s %-10s %7s %6s\n",$1,$2,$3,$4,$6,$7}'
tar czf $O/run19-final2.tgz -C $O logs
