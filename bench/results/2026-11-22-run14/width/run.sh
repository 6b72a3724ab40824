#!/usr/bin/env bash
# Run 14, call 2: access width in place on one machine: 64 x 64 tile pairs with one element, 8-byte
# (shifted) and 16-byte words, and the odd-n strip default, at 16384^2 (aligned rows) and 16411^2.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/info.txt
V=default,tile-64w16-row,shift-64w8-t512-row-b2,shift-64w8-t512-row-b2-p256,tile-64w4-row,tile-64w4-t512-row
V=$V,tile-64w4-t512-g4,multi2-64w4-t512-g2,strip4-32w4-t512-g8-b2-l128-p256s
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32 --shapes 16384x16384,16411x16411 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-4s %-32s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
