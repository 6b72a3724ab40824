#!/usr/bin/env bash
# Run 29, call 4 (kernels/NOTES.md "Run 29"): call 3 with the line index mended, short columns only;
# against the default (the thin kernel at these sides), u8 / u16, m = 1-16: set A 512 MiB two
# rounds, set B 384 MiB (other long sides); the records tests, memcheck and racecheck.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2)
# shapes T BYTES ORIENT MOD: for m = 1..16, long side n = BYTES / (m S) rounded down to a
# multiple of 8, plus MOD (0 or 4: the wide rows stay on 4 bytes); rows: m x n, cols: n x m.
shapes() {
  local t=$1 bytes=$2 o=$3 mod=$4 S="" m n
  for m in $(seq 1 16); do
    n=$(( (bytes / (m * ${SZ[$t]})) & ~7 )); n=$(( n + mod ))
    if [ $o = rows ]; then S="$S${S:+,}${m}x${n}"; else S="$S${S:+,}${n}x${m}"; fi
  done
  echo "$S"
}
run() {  # name type shapes
  timeout 150 $B/bench_kernels --compare --reps 10 --variant default,records,records-gs --types $2 --shapes $3 > $L/$1.log 2>&1
  echo "$1 rc=$? (${SECONDS}s)"
}
for t in u8 u16; do
  for o in cols; do
    run A1-$t-$o $t "$(shapes $t 536870912 $o 0)"
    run B-$t-$o $t "$(shapes $t 402653184 $o 4)"
    run A2-$t-$o $t "$(shapes $t 536870912 $o 0)"
  done
done
timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.RecordsCandidate:CudaKernels.SanitizerRecords:CudaKernels.EveryVariantOutOfPlace:CudaKernels.LargerSquare*:CudaKernels.ThinCandidate' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|declined" $L/tests.log | head
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.SanitizerRecords > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $L/san-$tool.log | head -3
done
tar czf $O/logs.tgz -C /tmp logs
echo "== x memcpy: shape, default / records / records-gs (A1 | A2 | B)"
col() { awk -v v=$2 '$3=="cand" && $4==v{print $7 ($9=="ok"?"":"!")}' $1; }
for t in u8 u16; do
  for o in cols; do
    echo "-- $t $o"
    paste <(awk '$3=="cand" && $4=="default"{print $2}' $L/A1-$t-$o.log) \
          <(col $L/A1-$t-$o.log default) <(col $L/A1-$t-$o.log records) <(col $L/A1-$t-$o.log records-gs) \
          <(col $L/A2-$t-$o.log default) <(col $L/A2-$t-$o.log records) <(col $L/A2-$t-$o.log records-gs) \
          <(col $L/B-$t-$o.log default) <(col $L/B-$t-$o.log records) <(col $L/B-$t-$o.log records-gs)
  done
done
echo "total ${SECONDS}s"
