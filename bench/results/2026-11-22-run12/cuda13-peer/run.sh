#!/usr/bin/env bash
# Run 12: the CUDA 13 build (build-cuda, sm_90) after the peer exchange's driver-entry-point
# lookup was made per toolkit version: GPU tests at 1 rank, then the DistributedTranspose and
# peer-transport tests at 2 ranks with a GPU each (the CUDA 12.5+ branch of the lookup).
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=.gpu-bundle/bin
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$O/gpu.txt"
$B/xpose_gpu_tests > "$O/tests.log" 2>&1; echo "tests (1 rank) rc=$?"
grep -E '^\[  (PASSED|FAILED) |tests? from .* ran' "$O/tests.log" | head -4
mpirun --oversubscribe --bind-to none -np 2 $B/xpose_gpu_tests \
  --gtest_filter='*DistributedTranspose*:*PeerTransport*' > "$O/tests-2ranks.log" 2>&1
echo "tests (2 ranks, 2 GPUs) rc=$?"
sed 's/\x1b\[[0-9;]*m//g' "$O/tests-2ranks.log" | grep -E '^\[ *(OK|PASSED|FAILED|SKIPPED) |transports on' | head -12
