#!/usr/bin/env bash
# Run 30, call 6 (kernels/NOTES.md "Run 30"): the final code: f32 one-stack pitches with rows on
# odd multiples of 128 bytes held out; launches that must not change; the GPU suite; the goals.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; }
for r in 1 2; do
  bk odd128-r$r --types f32 --variant default,tile-64x64w8,skew-64x64w16-b4-cm --shapes 81920x3104,163840x1120,245760x2080,81920x5152
  bk same-r$r --types f32 --variant default,tile-64x64w8,skew-64x64w16-b4-g16k-p256,skew-64x64w16-b4-cm-p256 --shapes 81920x2049,60001x12320,81920x2048
done
bk goal --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411
timeout 420 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for t in odd128 same; do
  echo "== $t: round, shape, candidate, x memcpy, verified"
  awk '$3=="cand"{f=FILENAME; sub(/.*-r/,"r",f); sub(/\.log/,"",f); print f, $2, $4, $7, $9}' $L/$t-r1.log $L/$t-r2.log
done
echo "== goal snapshot"; awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/goal.log
echo "total ${SECONDS}s"
