#!/usr/bin/env bash
# Run 31, call 4 (kernels/NOTES.md "Run 31, call 3"): balanced stagger bands never longer than the
# default's (-stagcH) against the default and -stagbH, input rows 320 / 640 KiB apart.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 280 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk f32-r$r --types f32 --variant default,skew-64x64w16-b4-cm-p256-stagb64,skew-64x64w16-b4-cm-p256-stagc64 --shapes 12345x81920,30001x81920,25000x163840,20001x81920,9001x81920,50001x81920,16001x81920,40001x163840
  bk f64-r$r --types f64 --variant default,skew-32x64w16-b4-cm-stagb128,skew-32x64w16-b4-cm-stagc128 --shapes 30001x40960,20001x40960,40960x40960,15001x40960,50001x40960,10001x40960,25001x81920
  bk c128-r$r --types c128 --variant default,skew-32x32-b4-cm-stagb32,skew-32x32-b4-cm-stagc32 --shapes 12345x40960,20480x20480,7001x40960,25001x20480,30001x40960,5001x40960,10001x20480,9001x40960
done
timeout 120 $B/xpose_gpu_tests --gtest_filter='CudaKernels.StaggerCandidates' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
tar czf $O/logs.tgz -C /tmp logs
for t in f32 f64 c128; do
  echo "== $t: shape, then default / stagb / stagc x memcpy for r1 ; r2 (verified: all ok unless listed)"
  for r in r1 r2; do awk -v r=$r '$3=="cand"{k=$2; v[k]=v[k]" "$7; if(!(k in o)){o[k]=++n; ks[n]=k}} $3=="cand"&&$9!="ok"{print "NOT OK", $0} END{for(i=1;i<=n;i++) print r, ks[i], v[ks[i]]}' $L/$t-$r.log; done
done
echo "total ${SECONDS}s"
