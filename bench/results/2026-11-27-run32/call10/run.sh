#!/usr/bin/env bash
# Run 32, call 10 (kernels/NOTES.md "Run 32"): the final code: the whole GPU suite, the goal
# snapshot, and the CLI end-to-end tests with --backend cuda on one rank.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 150 $B/bench_kernels --compare --reps 10 --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal.log 2>&1
echo "goal rc=$? (${SECONDS}s)"
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure" $L/suite.log | head -12
tar czf $O/logs.tgz -C /tmp logs
timeout 240 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 1 --mpiexec "mpirun --oversubscribe --bind-to none" \
  --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli.log 2>&1
echo "cli rc=$? (${SECONDS}s)"; tail -6 $L/cli.log
tar czf $O/logs.tgz -C /tmp logs
echo "== goal snapshot"; awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/goal.log
echo "total ${SECONDS}s"
