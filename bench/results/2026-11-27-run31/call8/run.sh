#!/usr/bin/env bash
# Run 31, call 8: the whole GPU suite on the final code (after the review's test guard).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 400 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|InPlaceOneStack" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
