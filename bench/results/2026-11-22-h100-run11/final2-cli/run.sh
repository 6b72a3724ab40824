#!/usr/bin/env bash
# Run 11 final 2, CLI part: the CLI end-to-end tests with --backend cuda at 1 and 2 ranks
# (bench/run_pipeline_gpu.sh section 2), bundle = build-cuda/bin/xpose only.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/gpu.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out bench/run_pipeline_gpu.sh > $O/cli.log 2>&1; echo "cli rc=$?")
grep -E 'PASS|FAIL' $O/cli.log | tail -6
