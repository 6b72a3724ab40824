#!/usr/bin/env bash
# Run 19, call 22: after the second review mend (device_smem_fits; whitespace): the GPU suite and
# the in-place defaults that depend on the shared-memory query (f32, u16 at 16411^2), and u8 out
# of place at 16411^2.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E '^\[  (PASSED|FAILED)|tests? from .* ran' $O/logs/tests.log | tee -a $O/logs/summary.txt
for t in f32 u16 u8; do
  timeout 100 $B/bench_kernels --compare --reps 20 --variant default --types $t --shapes 16411x16411 > $O/logs/$t.log 2>&1; echo "$t rc=$?" | tee -a $O/logs/summary.txt
  grep -E "^$t " $O/logs/$t.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-13s %-10s %7s %6s\n",$1,$2,$3,$4,$6,$7}'
done
tar czf $O/run19-review2.tgz -C $O logs
