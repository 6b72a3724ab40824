#!/usr/bin/env bash
# Run 32, call 1 (kernels/NOTES.md "Run 32"): a side of 1 copied in order, c128's stagger bands
# balanced below ten bands, the goal snapshot and the whole GPU suite.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 150 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
bk copy-u8 --types u8 --variant default,nocopy --shapes 1x536870912,536870912x1
bk copy-u16 --types u16 --variant default,nocopy --shapes 1x268435456,268435456x1
bk copy-f32 --types f32 --variant default,nocopy --shapes 1x134217728,134217728x1
bk copy-f64 --types f64 --variant default,nocopy --shapes 1x67108864,67108864x1
bk copy-c128 --types c128 --variant default,nocopy --shapes 1x33554432,33554432x1
for r in 1 2; do
  bk c128-r$r --types c128 --variant default,skew-32x32-b4-cm-stagc32,skew-32x32-b4-cm-stagc32u10 --shapes 2001x40960,4001x40960,8001x20480,4001x81920,9501x61440,11001x40960,13001x20480
done
bk goal --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411
timeout 280 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|tests? ran" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
echo "== copies: type, shape, candidate, x memcpy, verified"
awk '$3=="cand"{print $1, $2, $4, $7, $9}' $L/copy-*.log
echo "== c128 bands: round, shape, candidate, x memcpy, verified"
awk '$3=="cand"{f=FILENAME; sub(/.*-r/,"r",f); sub(/\.log/,"",f); print f, $2, $4, $7, $9}' $L/c128-r1.log $L/c128-r2.log
echo "== goal snapshot"; awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/goal.log
echo "total ${SECONDS}s"
