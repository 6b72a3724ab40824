#!/usr/bin/env bash
# Run 31, call 6 (kernels/NOTES.md "Plan for call 6"): f32 / f64 balanced stagger bands as the default (c128 bands of 32)
# against the old launch (bands of BAND) on fresh shapes; the GPU suite.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 280 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk f32-r$r --types f32 --variant default,skew-64x64w16-b4-cm-p256-stag64 --shapes 4001x81920,11001x81920,22001x163840,45001x81920
  bk f64-r$r --types f64 --variant default,skew-32x64w16-b4-cm-stag --shapes 8001x40960,18001x81920,27001x40960,60001x40960
  bk c128-r$r --types c128 --variant default,skew-32x32-b4-cm-stag32 --shapes 17001x20480,3001x40960
done
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for t in f32 f64 c128; do
  echo "== $t: round, shape, default (balanced) / old launch, x memcpy (verified: all ok unless listed)"
  for r in r1 r2; do awk -v r=$r '$3=="cand"{k=$2; v[k]=v[k]" "$7; if(!(k in o)){o[k]=++n; ks[n]=k}} $3=="cand"&&$9!="ok"{print "NOT OK", $0} END{for(i=1;i<=n;i++) print r, ks[i], v[ks[i]]}' $L/$t-$r.log; done
done
echo "total ${SECONDS}s"
