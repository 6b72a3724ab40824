#!/usr/bin/env bash
# Run 30, call 10 (kernels/NOTES.md "Run 30, second part"): the stagger's band height, where the
# input rows are 320 KiB (or 640 KiB) apart; two rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.StaggerCandidates' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
for r in 1 2; do
  bk c128-r$r --types c128 --variant default,skew-32x32-b4-cm-stag,skew-32x32-b4-cm-stag32 --shapes 20480x20480,40960x20480,20480x40960,20001x20480
  bk f64-r$r --types f64 --variant default,skew-32x64w16-b4-cm-stag,skew-32x64w16-b4-cm-stag32 --shapes 40960x40960,20001x40960
  bk f32-r$r --types f32 --variant default,skew-64x64w16-b4-cm-p256-stag,skew-64x64w16-b4-cm-p256-stag16,skew-64x64w16-b4-cm-p256-stag64 --shapes 20001x81920,30001x81920
done
for t in c128 f64 f32; do
  echo "== $t: round, shape, candidate, x memcpy, verified"
  awk '$3=="cand"{f=FILENAME; sub(/.*-r/,"r",f); sub(/\.log/,"",f); print f, $2, $4, $7, $9}' $L/$t-r1.log $L/$t-r2.log
done
echo "total ${SECONDS}s"
