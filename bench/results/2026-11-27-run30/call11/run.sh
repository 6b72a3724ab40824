#!/usr/bin/env bash
# Run 30, call 11 (kernels/NOTES.md "Run 30, second part"): the stagger rule held out, launches
# that must not change, the goal shapes, the whole GPU suite.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk c128-r$r --types c128 --variant default,skew-32x32-b4-cm --shapes 12345x40960,20480x20480,20000x20000,16384x20480
  bk f64-r$r --types f64 --variant default,skew-32x64w16-b4-cm --shapes 30001x40960,40960x40960,40960x20001
  bk f32-r$r --types f32 --variant default,skew-64x64w16-b4-cm-p256 --shapes 12345x81920,25000x163840
done
bk goal --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411
timeout 420 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for t in c128 f64 f32; do
  echo "== $t: round, shape, candidate, x memcpy, verified"
  awk '$3=="cand"||$3=="cublas-geam"{f=FILENAME; sub(/.*-r/,"r",f); sub(/\.log/,"",f); print f, $2, $4, $7, $9}' $L/$t-r1.log $L/$t-r2.log
done
echo "== goal snapshot"; awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/goal.log
echo "total ${SECONDS}s"
