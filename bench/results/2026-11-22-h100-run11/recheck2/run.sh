#!/usr/bin/env bash
# Run 11, at the last commit (the fetch loads guarded on sm_80: the sm_90 code is unchanged). As recheck/:
# GPU tests and compute-sanitizer again, and the defaults at the goal shapes
# on whichever H100 this lands on (tests/gpu/device_run.sh with --compare --variant default).
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
tests/gpu/device_run.sh .gpu-bundle/bin "$O" --compare --variant default 2>&1 | tail -24
sed -n '/^# compare/,/^$/p' $O/bench.log
