#!/usr/bin/env bash
# Run 20, call 3: the narrow kernels with row offsets kept in registers (-ko) against those that
# recompute them, twice over; tests of the new candidates first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
S=16384x16384,16392x16392,16386x16386,16411x16411
V8=default,narrow-128-t256-b4-cm,narrow-128-t256-b4-cm-ko
V16=default,narrow-128-t512-b2-cm-eg,narrow-128-t512-b2-cm-eg-ko,narrow-128-t512-b2-cm,narrow-128-t512-b2-cm-ko
for rep in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --variant $V16 --types u16 --shapes $S > $O/logs/u16-$rep.log 2>&1; echo "u16 $rep rc=$?" | tee -a $O/logs/summary.txt
  timeout 200 $B/bench_kernels --compare --reps 20 --variant $V8 --types u8 --shapes $S > $O/logs/u8-$rep.log 2>&1; echo "u8 $rep rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run20-ko.tgz -C $O logs
for f in u16-1 u16-2 u8-1 u8-2; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-28s %7s %6s\n",$1,$2,$4,$6,$7}'; done
