#!/usr/bin/env bash
# Run 11, after the second review commit (swap_strip's rotated index in one place), as review/:
# the skewed launcher, the odd-n in-place defaults named once, the unused 128-byte fetch gone,
# HINT bits renumbered): GPU tests, compute-sanitizer and the defaults at the goal shapes
# (device_run.sh --compare --variant default), then the 256-byte rule's shapes once.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
tests/gpu/device_run.sh .gpu-bundle/bin "$O" --compare --variant default 2>&1 | tail -8
sed -n '/^# compare/,/^$/p' $O/bench.log
E=default,tile-64x64w8,tile-32x64w8-b3,tile-16x16
timeout 150 .gpu-bundle/bin/bench_kernels --compare --variant $E --shapes 16400x16384,16384x16400,16392x16384 > $O/lines.log 2>&1; echo "lines rc=$?"
awk '($3 ~ /^cand/) {printf "%-5s %-12s %-4s %-26s %6s %4s\n",$1,$2,substr($3,1,4),$4,$7,$8}' $O/lines.log
