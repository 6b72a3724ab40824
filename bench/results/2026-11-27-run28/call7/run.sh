#!/usr/bin/env bash
# Run 28, call 7 (kernels/NOTES.md "Run 28, second part"): thin with the tall side in P x P
# blocks against the previous build (bench_kernels_r28a), two interleaved rounds; the thin tests,
# memcheck and racecheck on SanitizerThin.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2)
shapes() {
  local t=$1 bytes=$2 par=$3; shift 3; local S="" m n
  for m in "$@"; do
    n=$(( bytes / (m * ${SZ[$t]}) ))
    case $par in a4) n=$(( n & ~3 ));; odd) n=$(( n | 1 ));; esac
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  echo "$S"
}
for round in 1 2; do
  for t in u8 u16; do
    K="$(shapes $t 536870912 a4 4 8 12 24 64 128 200 3 6 9 13),$(shapes $t 536870912 odd 4 8 12 24 64 128 200 3 13)"
    for b in bench_kernels_r28a bench_kernels; do
      timeout 90 $B/$b --compare --reps 10 --variant thin --types $t --shapes $K > $L/blk-$t-$b-$round.log 2>&1
      awk '$3=="cand"{print $7 ($9=="ok"?"":"!")}' $L/blk-$t-$b-$round.log > $L/blk-$t-$b-$round.col
    done
  done
  echo "round $round (${SECONDS}s)"
done
timeout 240 $B/xpose_gpu_tests --gtest_filter='CudaKernels.LargerSquare*:CudaKernels.Random*:CudaKernels.ThinCandidate:CudaKernels.SanitizerThin:CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.SanitizerThin > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $L/san-$tool.log | head -3
done
tar czf $O/logs.tgz -C /tmp logs
echo "== thin x memcpy: previous / blocks (round 1 | round 2)"
for t in u8 u16; do
  paste <(awk '$3=="cand"{print $1, $2}' $L/blk-$t-bench_kernels_r28a-1.log) $L/blk-$t-bench_kernels_r28a-1.col $L/blk-$t-bench_kernels-1.col $L/blk-$t-bench_kernels_r28a-2.col $L/blk-$t-bench_kernels-2.col
done
echo "total ${SECONDS}s"
