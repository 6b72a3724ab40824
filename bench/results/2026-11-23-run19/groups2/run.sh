#!/usr/bin/env bash
# Run 19, call 7: in-place rot128 group sizes 1..64 at f32 4097^2 .. 32749^2; the skewed
# out-of-place kernel in groups of tile rows against column-major, f32 / f64 / c128; tests of
# the new candidates first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariant*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
IP=default,rot128-t1024-g16-p256,rot128-t1024-g24-p256,rot128-t1024-g32-p256,rot128-t1024-g48-p256,rot128-t1024-g64-p256
for i in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --variant $IP --types f32 --shapes 4097x4097,8193x8193,16411x16411,24577x24577,32749x32749 > $O/logs/ip-$i.log 2>&1; echo "ip-$i rc=$?" | tee -a $O/logs/summary.txt
done
OOP=default,skew-64x64w16-b4-p256,skew-64x64w16-b4-g16-p256,skew-64x64w16-b4-g32-p256,skew-64x64w16-b4-g64-p256,skew-32x64w16-b4-g32,skew-32x64w16-b4-g64,skew-32x32-b4-g32,skew-32x32-b4-g64
for i in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --variant $OOP --types f32 --shapes 16411x16411,24577x24577,32749x32749,20000x30000 > $O/logs/oop-f32-$i.log 2>&1; echo "oop-f32-$i rc=$?" | tee -a $O/logs/summary.txt
done
timeout 250 $B/bench_kernels --compare --reps 20 --variant $OOP --types f64,c128 --shapes 16411x16411,32749x32749 > $O/logs/oop-f64c128.log 2>&1; echo "oop-f64c128 rc=$?" | tee -a $O/logs/summary.txt
for f in ip-1 ip-2 oop-f32-1 oop-f32-2 oop-f64c128; do echo "== $f"; grep -E '^(f32|f64|c128) ' $O/logs/$f.log | grep -E 'memcpy|cand' | awk '{printf "%-4s %-12s %-13s %-30s %8s %6s\n",$1,$2,$3,$4,$6,$7}'; done
tar czf $O/run19-groups2.tgz -C $O logs
