#!/usr/bin/env bash
# Run 20, call 10: row words rotated onto 128-byte lines (-rot) in the narrow kernels, against
# the unrotated forms, on rows on and off 16 bytes, twice; tests and memcheck first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*SanitizerVariants*:*NarrowDefaults*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
grep "ERROR SUMMARY" $O/logs/memcheck.log | tail -1 | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16392x16392,16386x16386,16411x16411
for rep in 1 2; do
  timeout 150 $B/bench_kernels --compare --reps 20 --variant default,narrow-128-t512-b2-cm,narrow-128-t512-b2-cm-rot,narrow-128-t512-b2-cm-eg,narrow-128-t512-b2-cm-eg-rot --types u16 --shapes $S > $O/logs/u16-$rep.log 2>&1; echo "u16 $rep rc=$?" | tee -a $O/logs/summary.txt
  timeout 150 $B/bench_kernels --compare --reps 20 --variant default,narrow-256-t512-b2-cm,narrow-256-t512-b2-cm-rot --types u8 --shapes $S > $O/logs/u8-$rep.log 2>&1; echo "u8 $rep rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run20-rot.tgz -C $O logs
for f in u16-1 u16-2 u8-1 u8-2; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-30s %7s %6s\n",$1,$2,$4,$6,$7}'; done
