#!/bin/bash
# Run 26 call 1: random layouts (out of place, in place) with dispatch coverage, then the GPU
# suite, sanitizers and bench record (device_run.sh).
set -u
source .gpu-bundle/env.sh
L=$OUT/logs/call1
mkdir -p "$L"
nvidia-smi --query-gpu=name,uuid,driver_version,memory.total --format=csv | tee "$L/gpu.txt"
/usr/bin/time -v .gpu-bundle/bin/xpose_gpu_tests --gtest_filter='*RandomLayouts*' \
  > "$L/random.log" 2> "$L/random.time"
echo "random rc=$?"
grep -E "out of place,|in place,|OK \]|FAILED|Failure|error" "$L/random.log" | head -40
grep -E "Elapsed|Maximum resident" "$L/random.time"
tests/gpu/device_run.sh .gpu-bundle/bin "$L/record" > "$L/record.log" 2>&1
echo "record rc=$?"
cat "$L/record.log"
