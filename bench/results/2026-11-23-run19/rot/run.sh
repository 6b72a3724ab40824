#!/usr/bin/env bash
# Run 19, call 2: the rot* in-place candidates (inplace_rotated_kernel) in the library: their
# tests (EveryVariantInPlace, MultiPairInPlace), memcheck and racecheck of SanitizerVariants
#, then bench_kernels --compare against the out-of-place default at
# f32 16411^2, 16387^2, 16384^2 (20 runs, twice) and f64 / c128 at 16411^2.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantInPlace*:*MultiPairInPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -3 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 240 compute-sanitizer --tool memcheck $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
tail -2 $O/logs/memcheck.log | tee -a $O/logs/summary.txt
timeout 300 compute-sanitizer --tool racecheck $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -2 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
V=default,strip4-32w4-t512-g8-b2-l128-p256s,rot64-t512-g4-b2-p256,rot64-t512-g2-b2-p256,rot64-t512-g8-b2-p256,rot64-t512-g16-b2-p256,rot64-t512-g4-b2,rot64-t256-g4-b4-p256,rot32-t256-g8-b4-p256,rot128-t1024-g2-p256
for i in 1 2; do
  $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 16411x16411,16387x16387,16384x16384 > $O/logs/f32-$i.log 2>&1; echo "f32-$i rc=$?" | tee -a $O/logs/summary.txt
done
$B/bench_kernels --compare --reps 20 --variant default,rot64-t512-g4-b2-p256,rot32-t256-g8-b4-p256 --types f64,c128 --shapes 16411x16411 > $O/logs/f64c128.log 2>&1; echo "f64c128 rc=$?" | tee -a $O/logs/summary.txt
for f in f32-1 f32-2 f64c128; do echo "== $f"; grep -vE '^\s*$' $O/logs/$f.log | grep -E 'in place|x xpose|16411|16387|16384' | head -60; done
tar czf $O/run19-rot.tgz -C $O logs
