#!/usr/bin/env bash
# Run 29, call 14 (kernels/NOTES.md "Run 29"): a measurement for the next run, no rule here: the
# skewed kernels' orders on tall inputs (over 28000 rows, output rows off 256 bytes): the default
# (groups of 16000 rows) against plain column order and groups of 32000 / 16000 rows, narrow and
# wide, f32 / f64 / c128.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SH=([f32]=40001x2048,81924x2048,120001x1024,60001x4096,31013x8192,50001x16384 [f64]=40002x4096,60001x2048,100001x1024,50001x8192,31013x16384 [c128]=30001x4096,60001x2048,100001x1024,40001x8192,31013x8192)
declare -A SK=([f32]=skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-sweep-p256 [f64]=skew-32x64w16-b4-cm,skew-32x64w16-b4-sweep [c128]=skew-32x32-b4-cm,skew-32x32-b4-sweep)
for t in f32 f64 c128; do
  timeout 150 $B/bench_kernels --compare --reps 10 --variant default,${SK[$t]} --types $t --shapes ${SH[$t]} > $L/order-$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)"
done
tar czf $O/logs.tgz -C /tmp logs
for t in f32 f64 c128; do
  echo "== $t: shape, candidate, x memcpy"
  awk '$3=="cand"||$3=="cublas-geam"{print $2, $4, $7, $9}' $L/order-$t.log | paste - - - -
done
echo "total ${SECONDS}s"
