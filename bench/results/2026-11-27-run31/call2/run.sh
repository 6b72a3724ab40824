#!/usr/bin/env bash
# Run 31, call 2 (kernels/NOTES.md "Run 31"): the interleaved in-place order on one-stack pitches
# for f32 (n = 81920) and held out (c128 n = 40960), the new defaults and their controls, the
# GPU suite with InPlaceOneStack.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 240 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk f32-r$r --types f32 --variant default,tile-64w16-row,tile-64w16-i5,tile-64w16-i8,tile-64w16-stag --shapes 81920x81920
  bk c128-r$r --types c128 --variant default,tile-32-row --shapes 40960x40960,20480x20480,20000x20000
  bk f64-r$r --types f64 --variant default,tile-32w16-row --shapes 40960x40960,40000x40000
done
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|InPlaceOneStack" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for t in f32 c128 f64; do
  echo "== $t: round, shape, kind, candidate, x memcpy, verified"
  awk '$3=="cand"||$3=="cand-inplace"{f=FILENAME; sub(/.*-r/,"r",f); sub(/\.log/,"",f); print f, $2, $3, $4, $7, $9}' $L/$t-r1.log $L/$t-r2.log
done
echo "total ${SECONDS}s"
