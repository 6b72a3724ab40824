#!/usr/bin/env bash
# Run 19, call 21: the new u8 / u16 defaults (rotated kernels): GPU suite, memcheck, and the
# defaults against the old kernels at n on and off 256-byte rows.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E '^\[  (PASSED|FAILED)|tests? from .* ran' $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 250 compute-sanitizer --tool memcheck $B/xpose_gpu_tests --gtest_filter='*Sanitizer*:*InPlaceBatched*' > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/memcheck.log | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,20000x30000
timeout 250 $B/bench_kernels --compare --reps 20 --variant default,skew-128x64w16,tile-128w16-row,tile-32w1-row --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant default,skew-64x64w16,tile-64w16-row,tile-32w2-row --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-small3.tgz -C $O logs
for f in u8 u16; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-13s %-18s %7s %6s\n",$1,$2,$3,$4,$6,$7}'; done
