#!/usr/bin/env bash
# Run 37, call 12 (kernels/NOTES.md "Run 37"), on an H100: sanitize.sh's default filter on the
# final kernels (its random layouts reach the small f64 / c128 windows), and memcheck over
# SmallTileWindows.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs12; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs12; }
timeout 150 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.SmallTileWindows' > $L/memcheck-windows.log 2>&1
echo "memcheck SmallTileWindows rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|PASSED|FAILED" $L/memcheck-windows.log | head -3; pack
echo "total ${SECONDS}s"
