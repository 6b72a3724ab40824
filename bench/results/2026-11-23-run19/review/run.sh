#!/usr/bin/env bash
# Run 19, call 18: after the review's mend (inplace_rotated_kernel launched through
# launch_inplace_with; the bench's shared-memory opt-in through allow_dynamic_smem): the GPU
# suite, memcheck of the in-place tests, the f32 in-place default at odd / even n, and
# bench_inplace_pattern's swaps once.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E '^\[  (PASSED|FAILED)|tests? from .* ran' $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 250 compute-sanitizer --tool memcheck $B/xpose_gpu_tests --gtest_filter='*InPlace*' > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/memcheck.log | tee -a $O/logs/summary.txt
timeout 200 $B/bench_kernels --compare --reps 20 --variant default --types f32 --shapes 16411x16411,30000x30000,32749x32749 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 200 $B/bench_inplace_pattern --n 16411 --reps 10 > $O/logs/pattern.log 2>&1; echo "pattern rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-review.tgz -C $O logs
grep -E '^f32 ' $O/logs/f32.log | grep -E 'cand' | awk '{printf "%-12s %-13s %-10s %7s %6s\n",$2,$3,$4,$6,$7}'
grep -E '^(cuda|library|swap)' $O/logs/pattern.log
