#!/usr/bin/env bash
# Run 29, call 6 (kernels/NOTES.md "Run 29"): the same records figures on an H100 (the project's
# reference card; calls 1-5 ran on H200s): set A (512 MiB, two rounds) for u8 / u16, m = 1-16,
# both orientations, the default against the old one (norecords); the records tests.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2)
shapes() {
  local t=$1 bytes=$2 o=$3 mod=$4 S="" m n
  for m in $(seq 1 16); do
    n=$(( (bytes / (m * ${SZ[$t]})) & ~7 )); n=$(( n + mod ))
    if [ $o = rows ]; then S="$S${S:+,}${m}x${n}"; else S="$S${S:+,}${n}x${m}"; fi
  done
  echo "$S"
}
run() {
  timeout 150 $B/bench_kernels --compare --reps 10 --variant default,norecords --types $2 --shapes $3 > $L/$1.log 2>&1
  echo "$1 rc=$? (${SECONDS}s)"
}
for r in 1 2; do
  for t in u8 u16; do
    for o in rows cols; do run A$r-$t-$o $t "$(shapes $t 536870912 $o 0)"; done
  done
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.Records*:CudaKernels.SanitizerRecords' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
tar czf $O/logs.tgz -C /tmp logs
echo "== x memcpy: shape, default / norecords (A1 | A2)"
col() { awk -v v=$2 '$3=="cand" && $4==v{print $7 ($9=="ok"?"":"!")}' $1; }
for t in u8 u16; do
  for o in rows cols; do
    echo "-- $t $o"
    paste <(awk '$3=="cand" && $4=="default"{print $2}' $L/A1-$t-$o.log) <(col $L/A1-$t-$o.log default) \
          <(col $L/A1-$t-$o.log norecords) <(col $L/A2-$t-$o.log default) <(col $L/A2-$t-$o.log norecords) | paste - -
  done
done
echo "total ${SECONDS}s"
