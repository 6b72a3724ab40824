#!/usr/bin/env bash
# Run 20, call 12: in place with the narrow kernels' loads rotated onto 128-byte lines
# (-seq-rot) against the defaults, twice; tests and racecheck of the new candidates first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantInPlace*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 250 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
grep "RACECHECK SUMMARY" $O/logs/racecheck.log | tail -1 | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,16387x16387
for rep in 1 2; do
  timeout 150 $B/bench_kernels --compare --reps 20 --variant default,narrow256-t1024-g16-seq-rot --types u8 --shapes $S > $O/logs/u8-$rep.log 2>&1; echo "u8 $rep rc=$?" | tee -a $O/logs/summary.txt
  timeout 150 $B/bench_kernels --compare --reps 20 --variant default,narrow128-t512-b2-g8-seq-rot --types u16 --shapes $S > $O/logs/u16-$rep.log 2>&1; echo "u16 $rep rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run20-iprot.tgz -C $O logs
for f in u8-1 u8-2 u16-1 u16-2; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand-inplace' | awk '{printf "%-4s %-12s %-30s %7s %6s\n",$1,$2,$4,$6,$7}'; done
