#!/usr/bin/env bash
# Run 29, call 10 (kernels/NOTES.md "Run 29"): output pitches of k x 64 KiB (k = 1-12) for f32,
# f64, c128, about 1 GiB a matrix, input rows on 256 bytes: the default (the tiled kernel there)
# against the type's skewed kernel in column order; where does the c128 20480x12288 hole recur?
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([f32]=4 [f64]=8 [c128]=16)
declare -A SK=([f32]=skew-64x64w16-b4-cm-p256 [f64]=skew-32x64w16-b4-cm [c128]=skew-32x32-b4-cm)
for t in f32 f64 c128; do
  S=${SZ[$t]}; K=""
  for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
    R=$(( k * 65536 / S )); C=$(( (1073741824 / (R * S)) / 64 * 64 ))
    K="$K${K:+,}${R}x${C}"
  done
  timeout 150 $B/bench_kernels --compare --reps 10 --variant default,${SK[$t]} --types $t --shapes $K > $L/pitch-$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)"
done
tar czf $O/logs.tgz -C /tmp logs
col() { awk -v v=$2 '($3=="cand" && $4==v) || ($3=="cublas-geam" && v=="geam"){print $7 ($9=="ok"?"":"!")}' $1; }
for t in f32 f64 c128; do
  echo "== $t: shape (output pitch k x 64 KiB, k = 1..12), default / skewed / geam"
  paste <(awk '$3=="cand" && $4=="default"{print $2}' $L/pitch-$t.log) <(col $L/pitch-$t.log default) <(col $L/pitch-$t.log ${SK[$t]}) <(col $L/pitch-$t.log geam)
done
echo "total ${SECONDS}s"
