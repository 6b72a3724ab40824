#!/usr/bin/env bash
# Run 25, call 1: the out-of-place transposes on padded rows (bench_pitch; kernels/NOTES.md,
# "Run 25"). Two runs of every type, shapes and paddings; a short table last.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
S=16384x16384,24576x24576,32768x32768,32768x16384
for run in 1 2; do
  timeout 250 $B/bench_pitch --reps 20 --shapes $S --pads 0,256,512,1024,4096 > $O/logs/pitch$run.log 2>&1
  echo "pitch run $run rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
paste -d' ' <(awk '$3!="-" && $1!="type" && $1!~/^#/{print $1,$2,$3,$9,$10}' $O/logs/pitch1.log) \
            <(awk '$3!="-" && $1!="type" && $1!~/^#/{print $9,$12}' $O/logs/pitch2.log) |
  awk 'BEGIN{print "type shape pad x_mcpy(run1) 2D/mcpy x_mcpy(run2) check"} {print}'
