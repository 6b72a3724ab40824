#!/usr/bin/env bash
# Run 19, call 8: the skewed out-of-place kernel with G = 64, 128, 256 tile rows a group against
# column-major (f32, f64, c128); the in-place default (G = 32) against G = 1 and the strip.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariant*:*InPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
F32=default,skew-64x64w16-b4-g64-p256,skew-64x64w16-b4-g128-p256,skew-64x64w16-b4-g256-p256
F64=default,skew-32x64w16-b4-g64,skew-32x64w16-b4-g128,skew-32x64w16-b4-g256
C128=default,skew-32x32-b4-g64,skew-32x32-b4-g128,skew-32x32-b4-g256
for i in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --variant $F32 --types f32 --shapes 16411x16411,24577x24577,32749x32749,20000x30000 > $O/logs/f32-$i.log 2>&1; echo "f32-$i rc=$?" | tee -a $O/logs/summary.txt
  timeout 200 $B/bench_kernels --compare --reps 20 --variant $F64,$C128 --types f64,c128 --shapes 16411x16411,24577x24577,32749x32749 > $O/logs/f64c128-$i.log 2>&1; echo "f64c128-$i rc=$?" | tee -a $O/logs/summary.txt
done
timeout 200 $B/bench_kernels --compare --reps 20 --variant default,rot128-t1024-g1-p256,strip4-32w4-t512-g8-b2-l128-p256s --types f32 --shapes 1025x1025,2049x2049,4097x4097,8193x8193,16411x16411,24577x24577,32749x32749 > $O/logs/ip.log 2>&1; echo "ip rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-skewgroups.tgz -C $O logs
for f in f32-1 f32-2 f64c128-1 f64c128-2 ip; do echo "== $f"; grep -E '^(f32|f64|c128) ' $O/logs/$f.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-4s %-28s %6s\n",$1,$2,substr($3,1,7),$4,$7}'; done
