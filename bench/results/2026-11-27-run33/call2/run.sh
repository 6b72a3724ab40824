#!/usr/bin/env bash
# Run 33, call 2 (kernels/NOTES.md "Run 33"): compute-sanitizer memcheck, racecheck and
# synccheck over sanitize.sh's default filter on the final code, then the CLI end-to-end tests
# with --backend cuda at one and two ranks (both ranks on the one GPU).
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs; }
timeout 400 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)" | tee -a $L/summary.txt; pack
for np in 1 2; do
  timeout 80 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np $np --mpiexec "mpirun --oversubscribe --bind-to none" \
    --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli-np$np.log 2>&1
  echo "cli np$np rc=$? (${SECONDS}s)" | tee -a $L/summary.txt; tail -3 $L/cli-np$np.log; pack
done
grep -E "^== |ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)" $L/sanitize.log | head -20
echo "total ${SECONDS}s"
