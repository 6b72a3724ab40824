#!/usr/bin/env bash
# Run 12: the CUDA 11.8 build on lent GPUs. Built here with
#   XPOSE_CUDA_ARCHS="37;90" scripts/build-cuda11 -R 'kernels_other_archs|unit'
# (Debian's nvidia-cuda-toolkit 11.8, g++-11; sm_37 and sm_90 images), bundle:
#   gpu-bundle .gpu-bundle build-cuda11/bin/xpose_gpu_tests build-cuda11/bin/xpose, stripped,
#   plus libcudart.so.11.0 (the bundle tool leaves CUDA's libraries out).
# GPU tests at 1 rank, the sanitizers, the peer (CUDA IPC) and device-exchange tests at 2 ranks
# (one GPU each, where there are two), CLI tests with --backend cuda at 1 and 2 ranks.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=.gpu-bundle/bin
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee "$O/gpu.txt"
ldd $B/xpose_gpu_tests | grep -E 'cudart' | tee -a "$O/gpu.txt"
$B/xpose_gpu_tests > "$O/tests.log" 2>&1; echo "tests (1 rank) rc=$?"
grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran' "$O/tests.log" | head
tests/gpu/sanitize.sh $B/xpose_gpu_tests > "$O/sanitize.log" 2>&1; echo "sanitize rc=$?"
grep -E 'ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|: exit' "$O/sanitize.log"
ngpu=$(nvidia-smi -L | wc -l)
if [ "$ngpu" -ge 2 ]; then
  mpirun --oversubscribe --bind-to none -np 2 $B/xpose_gpu_tests \
    --gtest_filter='*DistributedTranspose*:*PeerTransport*' > "$O/tests-2ranks.log" 2>&1
  echo "tests (2 ranks, 2 GPUs) rc=$?"
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran|Failure' "$O/tests-2ranks.log" | head -20
fi
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out bench/run_pipeline_gpu.sh > "$O/cli.log" 2>&1; echo "cli rc=$?")
grep -E 'PASS|FAIL' "$O/cli.log" | tail -12
