#!/usr/bin/env bash
# Run 36, call 9 (kernels/NOTES.md "Run 36"): the final code's sanitizer run (sanitize.sh's
# default filter) and the goal snapshot.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs9; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs9; }
timeout 240 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
for t in f32 f64 c128; do
  timeout 100 $B/bench_kernels --compare --types $t --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411 > $L/goal-$t.log 2>&1
done
echo "goal (${SECONDS}s)"; pack
grep -l -E "FAIL|mismatch" $L/goal-*.log
echo "== goal shapes: type shape kernel detail GB/s x-memcpy"
cat $L/goal-*.log | awk '($3=="cand"||$3=="cublas-geam"||$3=="memcpy")&&$9=="ok"{print $1, $2, $3, $4, $6, $7}'
pack
echo "total ${SECONDS}s"
