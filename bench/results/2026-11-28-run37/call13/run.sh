#!/usr/bin/env bash
# Run 37, call 13 (kernels/NOTES.md "Run 37"): the CLI tests with --backend cuda at one rank on
# the final code.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs13; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs13; }
timeout 200 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 1 --mpiexec "mpirun --oversubscribe --bind-to none" \
  --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli.log 2>&1
echo "cli rc=$? (${SECONDS}s)"; tail -4 $L/cli.log; pack
echo "total ${SECONDS}s"
