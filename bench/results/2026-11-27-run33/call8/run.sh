#!/usr/bin/env bash
# Run 33, call 8 (kernels/NOTES.md "Run 33"): the final code: the whole GPU suite, the sanitizers
# on InPlaceFewBlocks, the small-n in-place figures against the old kernels, the goal snapshot,
# and the CLI tests with --backend cuda at one rank.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs8; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs8; }
timeout 280 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -8; pack
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.InPlaceFewBlocks > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/san-$tool.log; pack
done
$B/bench_kernels --compare --reps 50 --types f32 --variant default,rot128-t1024-g32-p256 --shapes 1000x1000,1500x1500 > $L/f32.log 2>&1
$B/bench_kernels --compare --reps 50 --types f64 --variant default,strip4-32w8-t512-g64-b2-l128-p256s --shapes 1000x1000,1500x1500,2500x2500,4001x4001 > $L/f64.log 2>&1
$B/bench_kernels --compare --reps 50 --types c128 --variant default,multi2-32-g32-p256 --shapes 1000x1000,1500x1500,2500x2500,4001x4001 > $L/c128.log 2>&1
$B/bench_kernels --compare --reps 50 --batch 8 --types c128 --variant default,multi2-32-g32-p256 --shapes 1000x1000 > $L/c128-b8.log 2>&1
$B/bench_kernels --compare --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal.log 2>&1
echo "bench (${SECONDS}s)"; pack
timeout 150 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 1 --mpiexec "mpirun --oversubscribe --bind-to none" \
  --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli.log 2>&1
echo "cli rc=$? (${SECONDS}s)"; tail -5 $L/cli.log; pack
grep -l -E "FAIL|mismatch|ERROR" $L/f32.log $L/f64.log $L/c128*.log $L/goal.log
echo "== in place GB/s: type shape candidate"
for f in $L/f32.log $L/f64.log $L/c128.log $L/c128-b8.log; do awk '$3=="cand-inplace"&&$9=="ok"{print $1, $2, $4, $6}' $f; done
echo "== goal snapshot: type shape out-of-place x memcpy, in place x out of place"
awk '$3=="cand"&&$4=="default"{print $1, $2, $6, $7}' $L/goal.log
sed -n '/^# compare/,/^$/p' $L/goal.log | head -16
echo "total ${SECONDS}s"
