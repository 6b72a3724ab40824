#!/usr/bin/env bash
# Run 26, call 9: the record on the final code (thin slabs split by orientation): GPU suite,
# sanitizers, bench_kernels goal table (tests/gpu/device_run.sh).
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
timeout 270 tests/gpu/device_run.sh .gpu-bundle/bin $O/logs/record > $O/logs/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"; cat $O/logs/record.log
grep -E "out of place,|in place," $O/logs/record/tests.log
