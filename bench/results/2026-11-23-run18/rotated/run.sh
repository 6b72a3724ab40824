#!/usr/bin/env bash
# Run 18, call 3: bench_inplace_pattern with the rotated square copies (pattern_rotated), at f32
# 16411^2, 16384^2 and 16384:16411 (n:pitch), twice; memcheck and racecheck at small n first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
compute-sanitizer --tool memcheck $B/bench_inplace_pattern --n 1,31,100,333,1000,333:340,100:131 --reps 1 > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/memcheck.log | tee -a $O/logs/summary.txt
compute-sanitizer --tool racecheck $B/bench_inplace_pattern --n 333,1000,333:340 --reps 1 > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
for i in 1 2; do
  $B/bench_inplace_pattern --n 16411,16384,16384:16411 --reps 20 > $O/logs/pattern$i.log 2>&1; echo "pattern$i rc=$?" | tee -a $O/logs/summary.txt
done
for i in 1 2; do echo "== pattern$i"; grep -E '^(cuda|library|strip 4x32, elements  |square 128, cp|square .*rotated)' $O/logs/pattern$i.log; done
tar czf $O/run18-rotated.tgz -C $O logs
