#!/usr/bin/env bash
# Run 19, call 17: the out-of-place rotated kernel with P tiles a block against the skewed
# default (f32), after the tests of the new candidates.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 200 compute-sanitizer --tool racecheck $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
V=default,rot-128x128-t1024-b1-cm-p256,rot-128x128x2-t1024-b1-cm-p256,rot-64x64x2-t512-b2-cm-p256,rot-64x64x4-t512-b2-cm-p256
for i in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 16411x16411,16387x16387,24577x24577,20000x30000 > $O/logs/f32-$i.log 2>&1; echo "f32-$i rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run19-oop2.tgz -C $O logs
for f in f32-1 f32-2; do echo "== $f"; grep -E '^f32 ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-12s %-32s %7s %6s\n",$2,$4,$6,$7}'; done
