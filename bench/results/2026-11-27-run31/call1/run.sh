#!/usr/bin/env bash
# Run 31, call 1 (kernels/NOTES.md "Run 31"): run 30's unrun checks (the GPU suite, goal
# snapshot) and in place at one-stack pitches (staggered and interleaved orders).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk c128-r$r --types c128 --variant default,tile-32-stag,tile-32-i5,tile-32-i8,tile-32-i16 --shapes 20480x20480,20000x20000,16384x16384
  bk f64-r$r --types f64 --variant default,tile-32w16-stag,tile-32w16-i5,tile-32w16-i8,tile-32w16-i16 --shapes 40960x40960,40000x40000
done
bk goal --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411
bk goal2 --types c128 --variant default --shapes 20480x20480
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|tests? ran" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for t in c128 f64; do
  echo "== $t in place: round, shape, candidate, x memcpy, verified"
  awk '$3=="cand-inplace"{f=FILENAME; sub(/.*-r/,"r",f); sub(/\.log/,"",f); print f, $2, $4, $7, $9}' $L/$t-r1.log $L/$t-r2.log
done
echo "== goal snapshot (out of place)"; awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/goal.log $L/goal2.log
echo "total ${SECONDS}s"
