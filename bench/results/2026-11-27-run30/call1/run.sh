#!/usr/bin/env bash
# Run 30, call 1 (kernels/NOTES.md "Run 30"): the cached device_dram() on a GPU (c128 16384²,
# dispatch tests, goal snapshot), then the skewed kernels' order on tall inputs with rows on /
# off 128 bytes and on one-stack pitches, two rounds.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 60 $B/bench_kernels --compare --reps 20 --variant default,tile-16x16 --types c128 --shapes 16384x16384 > $L/c128.log 2>&1
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OneStackPitch:CudaKernels.Records*:CudaKernels.LargerSquare*:CudaKernels.RandomLayoutsOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head -12
timeout 120 $B/bench_kernels --compare --reps 10 --variant default --types f32,f64,c128 --shapes 16384x16384,32768x32768 > $L/goal.log 2>&1
declare -A SH=([f32]=40001x3072,81924x2080,50001x6144,60001x12320,40001x2049,81924x2050,60001x4104,50001x16411,31013x31013,100001x5003
               [f64]=40002x3072,60001x2064,50001x6160,40002x4097,60001x2052,100001x5003,31013x31013
               [c128]=30001x3080,60001x2056,40001x6144,30001x4097,60001x2050,100001x5003,31013x8193)
declare -A ST=([f32]=81920x2048,81920x2049 [f64]=81920x2048,40960x4097 [c128]=40960x2048,40960x3001)
declare -A SK=([f32]=skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-sweep-p256 [f64]=skew-32x64w16-b4-cm,skew-32x64w16-b4-sweep [c128]=skew-32x32-b4-cm,skew-32x32-b4-sweep)
declare -A SG=([f32]=skew-64x64w16-b4-g16k-p256 [f64]=skew-32x64w16-b4-g16k [c128]=skew-32x32-b4-g16k)
for r in 1 2; do
  for t in f32 f64 c128; do
    timeout 200 $B/bench_kernels --compare --reps 10 --variant default,${SK[$t]} --types $t --shapes ${SH[$t]} > $L/order-$t-r$r.log 2>&1
    echo "$t r$r rc=$? (${SECONDS}s)"
    timeout 100 $B/bench_kernels --compare --reps 10 --variant default,${SK[$t]},${SG[$t]} --types $t --shapes ${ST[$t]} > $L/stack-$t-r$r.log 2>&1
    echo "$t stack r$r rc=$? (${SECONDS}s)"
  done
done
tar czf $O/logs.tgz -C /tmp logs
echo "== c128 16384² and goal snapshot: shape, candidate, x memcpy, verified"
awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/c128.log $L/goal.log
for t in f32 f64 c128; do
  echo "== $t order (default / cm / sweep), rounds 1 and 2"
  paste <(awk '$3=="cand"{print $2, $7}' $L/order-$t-r1.log | paste -d' ' - - -) <(awk '$3=="cand"{print $7, $9}' $L/order-$t-r2.log | paste -d' ' - - -)
  echo "== $t one-stack (default / cm / sweep / g16k), rounds 1 and 2"
  paste <(awk '$3=="cand"{print $2, $7}' $L/stack-$t-r1.log | paste -d' ' - - - -) <(awk '$3=="cand"{print $7, $9}' $L/stack-$t-r2.log | paste -d' ' - - - -)
done
echo "total ${SECONDS}s"
