#!/usr/bin/env bash
# Run 19, call 10: the skewed kernel's column sweep capped at 28672 input rows (-sweep) against
# column-major, f32 / f64 / c128 on tall inputs; tests of the new candidates first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
V=default,skew-64x64w16-b4-sweep-p256,skew-32x64w16-b4-sweep,skew-32x32-b4-sweep
for i in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 16411x16411,30000x30000,32700x32700,32749x32749,32767x32767,30000x20000,32749x16411 > $O/logs/f32-$i.log 2>&1; echo "f32-$i rc=$?" | tee -a $O/logs/summary.txt
done
timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types f64,c128 --shapes 30000x30000,32749x32749 > $O/logs/f64c128.log 2>&1; echo "f64c128 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-sweep.tgz -C $O logs
for f in f32-1 f32-2 f64c128; do echo "== $f"; grep -E '^(f32|f64|c128) ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-28s %6s\n",$1,$2,$4,$7}'; done
