#!/usr/bin/env bash
# Run 42, call 8 (kernels/NOTES.md "Run 42"): the final code (the refuted candidates pruned) on a
# GPU: the whole suite in four shards, sanitize.sh, and the f32 / c128 goal shapes once.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs8; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs8; }
tests/gpu/suite_shards.sh $B $L 4; echo "suite rc=$? (${SECONDS}s)"; pack
timeout 90 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
echo "total ${SECONDS}s"
