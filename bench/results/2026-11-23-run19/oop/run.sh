#!/usr/bin/env bash
# Run 19, call 5: the rot128 in-place orders at larger odd n, and the out-of-place rot-*
# candidates (rotated_kernel) against the skewed default; their tests and sanitizers first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 240 compute-sanitizer --tool memcheck $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/memcheck.log | tee -a $O/logs/summary.txt
timeout 240 compute-sanitizer --tool racecheck $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
IP=default,strip4-32w4-t512-g8-b2-l128-p256s,rot128-t1024-g2-p256,rot128-t1024-g4-p256
timeout 200 $B/bench_kernels --compare --reps 20 --variant $IP --types f32 --shapes 24577x24577,32771x32771 > $O/logs/ip-large.log 2>&1; echo "ip-large rc=$?" | tee -a $O/logs/summary.txt
OOP=default,rot-128x128-t512-b2-cm-p256,rot-128x128-t512-b2-p256,rot-128x128-t512-b2-g4-p256,rot-128x128-t1024-b1-cm-p256,rot-128x128-t1024-b2-cm-p256,rot-64x64-t256-b4-cm-p256,rot-64x64-t256-b6-cm-p256
for i in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --variant $OOP --types f32 --shapes 16411x16411,16387x16387,24577x24577,20000x30000 > $O/logs/oop-$i.log 2>&1; echo "oop-$i rc=$?" | tee -a $O/logs/summary.txt
done
for f in ip-large oop-1 oop-2; do echo "== $f"; grep -E '^f32 ' $O/logs/$f.log | grep -E 'memcpy|cand' | awk '{printf "%-12s %-13s %-32s %8s %6s\n",$2,$3,$4,$6,$7}'; grep -A6 '^# compare' $O/logs/$f.log | grep -E '^f32' ; done
tar czf $O/run19-oop.tgz -C $O logs
