#!/usr/bin/env bash
# Run 19, call 11: the skewed kernel's column sweep capped at 32000 input rows (-sweep) against
# column-major on inputs of 32749 to 60000 rows.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
V=default,skew-64x64w16-b4-sweep-p256,skew-32x64w16-b4-sweep,skew-32x32-b4-sweep
timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 32749x16411,45000x20011,60000x16411,30000x30000 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types f64 --shapes 45000x16411,60000x8191 > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types c128 --shapes 32749x32749,45000x16411 > $O/logs/c128.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-sweep2.tgz -C $O logs
for f in f32 f64 c128; do echo "== $f"; grep -E '^(f32|f64|c128) ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-28s %6s\n",$1,$2,$4,$7}'; done
