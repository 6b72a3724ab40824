#!/usr/bin/env bash
# Run 33, call 11 (kernels/NOTES.md "Run 33"): the final code: the whole GPU suite, sanitize.sh's
# default filter (with SanitizerRun33), the goal snapshot with in place, f32 in place at small n
# (default against the old edge pairs), the CLI tests with --backend cuda at one rank.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs11; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs11; }
timeout 280 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -8; pack
timeout 200 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
$B/bench_kernels --compare --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal.log 2>&1
$B/bench_kernels --compare --reps 50 --types f32 --variant default,rot128-t1024-g32-p256 --shapes 1000x1000,1500x1500,2000x2000,2500x2500,3001x3001,16411x16411 > $L/f32.log 2>&1
echo "bench (${SECONDS}s)"; pack
timeout 150 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 1 --mpiexec "mpirun --oversubscribe --bind-to none" \
  --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli.log 2>&1
echo "cli rc=$? (${SECONDS}s)"; tail -5 $L/cli.log; pack
grep -l -E "FAIL|mismatch|ERROR" $L/goal.log $L/f32.log
echo "== f32 in place GB/s"; awk '$3=="cand-inplace"&&$9=="ok"{print $2, $4, $6}' $L/f32.log
sed -n '/^# compare/,/^$/p' $L/goal.log | head -16
echo "total ${SECONDS}s"
