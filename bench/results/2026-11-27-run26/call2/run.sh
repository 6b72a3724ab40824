#!/bin/bash
# Run 26 call 2: the random layouts again (after the generator's refactor), then compute-sanitizer
# (memcheck, racecheck, synccheck) on SanitizerShapes and SanitizerRandomLayouts.
set -u
source .gpu-bundle/env.sh
L=$OUT/logs/call2
mkdir -p "$L"
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv | tee "$L/gpu.txt"
.gpu-bundle/bin/xpose_gpu_tests --gtest_filter='*RandomLayouts*' > "$L/random.log" 2>&1
echo "random rc=$?"
grep -E "out of place,|in place,|OK \]|FAILED|Failure" "$L/random.log" | head -40
start=$(date +%s)
tests/gpu/sanitize.sh .gpu-bundle/bin/xpose_gpu_tests > "$L/sanitize.log" 2>&1
echo "sanitize rc=$? in $(( $(date +%s) - start )) s"
grep -E "^== |ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY|PASSED|FAILED|OK \]" "$L/sanitize.log" | head -40
