#!/usr/bin/env bash
# Run 42, call 9 (kernels/NOTES.md "Run 42"): the review commit on a GPU: tests/gpu/engine_e2e.sh
# (its first run on a GPU) on shapes the run's rules take, the whole suite in four shards,
# sanitize.sh.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs9; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs9; }
tests/gpu/engine_e2e.sh $B $L float32:8004x16004:2GiB complex128:1411x1411:256MiB \
  float32:20000x30000:1GiB complex128:2x1001x1001:128MiB float64:3001x2003:64MiB
echo "e2e rc=$? (${SECONDS}s)"; pack
tests/gpu/suite_shards.sh $B $L 4; echo "suite rc=$? (${SECONDS}s)"; pack
timeout 90 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
echo "total ${SECONDS}s"
