#!/usr/bin/env bash
# Run 33, call 1 (kernels/NOTES.md "Run 33"): the record on the final code of run 32: the whole
# GPU suite, then bench_kernels' full table with its CSV (the README's table and chart), then
# the 131072² f32 in-place transpose (--huge-only). Logs are packed after each step.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L/record
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee $L/record/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
timeout 280 $B/xpose_gpu_tests > $L/record/tests.log 2>&1
echo "suite rc=$? (${SECONDS}s)" | tee -a $L/summary.txt; pack
timeout 200 $B/bench_kernels --csv $L/record/kernels.csv > $L/record/bench.log 2>&1
echo "bench rc=$? (${SECONDS}s)" | tee -a $L/summary.txt; pack
timeout 100 $B/bench_kernels --huge-only > $L/record/huge.log 2>&1
echo "huge rc=$? (${SECONDS}s)" | tee -a $L/summary.txt; pack
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran|Failure" $L/record/tests.log | head -12
grep -c -E "FAIL|mismatch|ERROR" $L/record/bench.log $L/record/huge.log
sed -n '/^# summary/,$p' $L/record/bench.log | head -40
tail -6 $L/record/huge.log
echo "total ${SECONDS}s"
