#!/usr/bin/env bash
# Run 30, call 3 (kernels/NOTES.md "Run 30"): the skewed order rule (skew_in_column_order) held
# out against the old defaults, f32 on one-stack pitches with rows on 128 bytes, f32's 12320
# columns, then the whole GPU suite.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; }
for r in 1 2; do
  bk lines-f64-r$r --types f64 --variant default,skew-32x64w16-b4-g16k --shapes 45001x2560,70001x3584,33001x9216,90001x1152,31013x31013
  bk lines-c128-r$r --types c128 --variant default,skew-32x32-b4-g16k --shapes 45001x1536,35001x5120,70001x2304,29001x7168,100001x5003
  bk stack-f64-r$r --types f64 --variant default,tile-32x64w8-b3 --shapes 81920x3001,40960x8320,122880x1001
  bk stack-c128-r$r --types c128 --variant default,tile-16x16 --shapes 40960x4001,81920x1501,61440x2560
  bk stack-f32-r$r --types f32 --variant default,skew-64x64w16-b4-cm-p256 --shapes 81920x4096,81920x6144,163840x2080,81920x10240,81920x12288,81920x2048
  bk w-f32-r$r --types f32 --variant default,skew-64x64w16-b4-cm-p256 --shapes 60001x6160,60001x9856,60001x11264,60001x12320,60001x12352,60001x24640
done
timeout 420 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|tests ran" $L/suite.log | head -20
tar czf $O/logs.tgz -C /tmp logs
for t in lines-f64 lines-c128 stack-f64 stack-c128 stack-f32 w-f32; do
  echo "== $t: shape, default, other, rounds 1 and 2"
  paste <(awk '$3=="cand"{print $2, $7}' $L/$t-r1.log | paste -d' ' - -) <(awk '$3=="cand"{print $4, $7, $9}' $L/$t-r2.log | paste -d' ' - -)
done
echo "total ${SECONDS}s"
