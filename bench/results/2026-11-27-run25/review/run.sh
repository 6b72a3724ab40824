#!/usr/bin/env bash
# Run 25, after the review's mend (WideEdge reads the element size from its kernel; bench_kernels
# and bench_pitch share the back-to-back timer; bench_pitch checks element by element): the
# narrow tests, u16 in place at call 4's edge widths, bench_pitch in both timing modes.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.NarrowDefaults:CudaKernels.NarrowEdge*:CudaKernels.EveryVariantInPlace' > $O/logs/tests.log 2>&1; echo "tests rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
tail -3 $O/logs/tests.log
S=16411x16411,16420x16420,16440x16440,16448x16448,16584x16584
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,narrow128-t512-b2-g8-seq,narrow128-t512-b2-g8-seq-wedge --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
timeout 120 $B/bench_kernels --compare --reps 20 --variant default --shapes 16384x16384,32768x32768 > $O/logs/goal.log 2>&1; echo "goal rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
for m in "" --back-to-back; do
  timeout 120 $B/bench_pitch --reps 20 --shapes 16384x16384,32768x32768 --pads 0,256 --shifts 0,2048 $m > $O/logs/pitch$m.log 2>&1; echo "pitch $m rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
grep -E ' cand-inplace ' $O/logs/u16.log | awk '{print $2, $4, $7, $9}'
grep -E ' cand ' $O/logs/goal.log | awk '{print $1, $2, $4, $7, $9}'
cat $O/logs/pitch.log $O/logs/pitch--back-to-back.log | grep -v '^#' | awk '$4!="-"' | awk '{print $1,$2,$3,$4,$10,$13}'
