#!/usr/bin/env bash
# Run 13, the committed code (inplace_words_kernel loads first; issue_rows / scatter_rows split
# out of load_rows, which every skewed kernel uses): GPU tests, compute-sanitizer and the defaults
# at the goal shapes (device_run.sh --compare --variant default).
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,ecc.mode.current --format=csv,noheader
tests/gpu/device_run.sh .gpu-bundle/bin "$O" --compare --variant default 2>&1 | tail -8
sed -n '/^# compare/,/^$/p' $O/bench.log
