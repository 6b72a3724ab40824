#!/usr/bin/env bash
# Run 29, call 12 (kernels/NOTES.md "Run 29"): the one-stack pitch rule narrowed to inputs of at most 28000 rows, on call 11's shapes
# (output pitches of 1, 2 and 3 x 320 KiB at other widths, and controls 16 bytes a row past
# them): default against the tiled and skewed candidates; the dispatch tests.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SH=([f32]=81920x2048,163840x1024,245760x1024,81924x2048 [f64]=40960x4096,81920x2048,122880x1024,40962x4096 [c128]=20480x4096,40960x2048,61440x1024,20481x4096,20480x12288)
declare -A TI=([f32]=tile-64x64w8 [f64]=tile-32x64w8-b3 [c128]=tile-16x16)
declare -A SK=([f32]=skew-64x64w16-b4-cm-p256 [f64]=skew-32x64w16-b4-cm [c128]=skew-32x32-b4-cm)
for t in f32 f64 c128; do
  timeout 150 $B/bench_kernels --compare --reps 10 --variant default,${TI[$t]},${SK[$t]} --types $t --shapes ${SH[$t]} > $L/held-$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)"
done
head -1 $L/held-f32.log
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackPitch:CudaKernels.LargerSquare*:CudaKernels.RandomLayoutsOutOfPlace:CudaKernels.Records*:CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
tar czf $O/logs.tgz -C /tmp logs
for t in f32 f64 c128; do
  echo "== $t: shape, candidate, x memcpy"
  awk '$3=="cand"||$3=="cublas-geam"{print $2, $4, $7, $9}' $L/held-$t.log
done
echo "total ${SECONDS}s"
