#!/usr/bin/env bash
# Run 37, review check (kernels/NOTES.md "Run 37", review): the dispatch tests on the refactored
# wrappers (the same kernels; c128's entry now PreferOnHighBandwidth).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logsr; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 170 $B/xpose_gpu_tests --gtest_filter='CudaKernels.HighBandwidthDispatch:CudaKernels.SmallTileWindows:CudaKernels.OutOfPlaceFewTiles:CudaKernels.RandomLayoutsOutOfPlace:CudaKernels.LargerSquareAndRectangular' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|TMA entry|Failure" $L/tests.log | head
tar czf $O/logs.tgz -C /tmp logsr
