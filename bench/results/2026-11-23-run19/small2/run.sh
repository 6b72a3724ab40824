#!/usr/bin/env bash
# Run 19, call 20: the rotated kernels for u8 / u16, in place and out of place, against the
# defaults on and off 256-byte rows; tests of the new candidates first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariant*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 250 compute-sanitizer --tool racecheck $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16416x16416,16392x16392,16411x16411,20000x30000
V=default,rot128-t1024-g32,rot-128x128-t1024-b1-cm,rot-128x128-t512-b3-cm,rot-128x128-t512-b3
for t in u8 u16; do
  timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types $t --shapes $S > $O/logs/$t.log 2>&1; echo "$t rc=$?" | tee -a $O/logs/summary.txt
done
tar czf $O/run19-small2.tgz -C $O logs
for f in u8 u16; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-13s %-26s %7s %6s\n",$1,$2,$3,$4,$6,$7}'; done
