#!/usr/bin/env bash
# Run 30, call 4 (kernels/NOTES.md "Run 30"): f32's skewed order with the fetch unit (256 bytes)
# held out against the old defaults; rows on odd multiples of 128 bytes with and without the
# 256-byte fetch hint; the whole GPU suite; the goal snapshot.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; }
for r in 1 2; do
  bk tall-r$r --types f32 --variant default,skew-64x64w16-b4-g16k-p256 --shapes 60001x9856,60001x11264,60001x12352,40001x24640,45001x5120,90001x3584,33001x17408
  bk stack-r$r --types f32 --variant default,tile-64x64w8 --shapes 81920x3072,163840x2048,81920x13312,245760x1024
  bk odd-r$r --types f32 --variant default,skew-64x64w16-b4-g16k-p256,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-cm --shapes 60001x12320,60001x7200,40001x15520
  bk oddstack-r$r --types f32 --variant default,tile-64x64w8,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-cm --shapes 163840x2080
done
bk goal --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411
timeout 420 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for t in tall stack; do
  echo "== $t: shape, default, old, rounds 1 and 2"
  paste <(awk '$3=="cand"{print $2, $7}' $L/$t-r1.log | paste -d' ' - -) <(awk '$3=="cand"{print $7, $9}' $L/$t-r2.log | paste -d' ' - -)
done
for t in odd oddstack; do
  echo "== $t: shape, default, old, cm-p256, cm (no hint), rounds 1 and 2"
  paste <(awk '$3=="cand"{print $2, $7}' $L/$t-r1.log | paste -d' ' - - - -) <(awk '$3=="cand"{print $7, $9}' $L/$t-r2.log | paste -d' ' - - - -)
done
echo "== goal snapshot"; awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/goal.log
echo "total ${SECONDS}s"
