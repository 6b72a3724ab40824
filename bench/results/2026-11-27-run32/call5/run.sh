#!/usr/bin/env bash
# Run 32, call 5 (kernels/NOTES.md "Run 32"): the final code: GPU suite, compute-sanitizer on
# SanitizerRun32, the spread default against its candidate, the goal snapshot.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
export PATH=$PATH:/usr/local/cuda/bin
bk() { local log=$1; shift; timeout 150 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
bk f32 --types f32 --variant default,skew-64x64w16-b4-g16k-p256-sp5 --shapes 81920x2049
bk f64 --types f64 --variant default,skew-32x64w16-b4-g16k-sp5 --shapes 40960x3001
bk c128 --types c128 --variant default,skew-32x32-b4-g16k-sp5 --shapes 40960x1501
bk goal --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411
SANITIZE_FILTER='CudaKernels.SanitizerRun32' timeout 200 bash tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|^\[  (PASSED|FAILED) " $L/sanitize.log | head -20
tar czf $O/logs.tgz -C /tmp logs
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure" $L/suite.log | head -12
tar czf $O/logs.tgz -C /tmp logs
awk '$3=="cand"{print $1, $2, $4, $7, $9}' $L/f32.log $L/f64.log $L/c128.log
echo "== goal snapshot"; awk '$3=="cand"||$3=="cublas-geam"{print $1, $2, $4, $7, $9}' $L/goal.log
echo "total ${SECONDS}s"
