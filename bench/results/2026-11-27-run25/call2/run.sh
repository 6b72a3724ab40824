#!/usr/bin/env bash
# Run 25, call 2: the dense goal shapes at seven placements of the output, each run waited for
# alone and queued back to back, beside bench_kernels (kernels/NOTES.md, "Run 25").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
SH=0,64,1024,2048,6144,32768,1048576
for run in 1 2; do
  timeout 200 $B/bench_pitch --reps 20 --shapes 16384x16384,32768x32768 --pads 0 --shifts $SH > $O/logs/alone$run.log 2>&1
  echo "alone run $run rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
  timeout 200 $B/bench_pitch --reps 20 --shapes 16384x16384,32768x32768 --pads 0 --shifts $SH --back-to-back > $O/logs/b2b$run.log 2>&1
  echo "b2b run $run rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
  timeout 200 $B/bench_kernels --compare --reps 20 --variant default --shapes 16384x16384,32768x32768 > $O/logs/kernels$run.log 2>&1
  echo "bench_kernels run $run rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
echo "type shape outKiB | alone1 alone2 b2b1 b2b2 (x memcpy at that placement)"
paste -d' ' <(awk '$4!="-" && $1!="type" && $1!~/^#/{print $1,$2,$3,$10,$13}' $O/logs/alone1.log) \
  <(awk '$4!="-" && $1!="type" && $1!~/^#/{print $10,$13}' $O/logs/alone2.log) \
  <(awk '$4!="-" && $1!="type" && $1!~/^#/{print $10,$13}' $O/logs/b2b1.log) \
  <(awk '$4!="-" && $1!="type" && $1!~/^#/{print $10,$13}' $O/logs/b2b2.log)
for r in 1 2; do sed -n '/^# summary/,$p' $O/logs/kernels$r.log | head -10; done
