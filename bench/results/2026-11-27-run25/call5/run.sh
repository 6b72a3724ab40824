#!/usr/bin/env bash
# Run 25, call 5: the CLI end-to-end tests with --backend cuda at 1 and 2 ranks on the final
# dispatch (kernels/NOTES.md, "Run 25").
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 300 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$? (${SECONDS}s)") | tee -a $O/logs/summary.txt
grep -E 'PASS|FAIL' $O/logs/cli.log | tail -6
