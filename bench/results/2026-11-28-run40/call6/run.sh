#!/usr/bin/env bash
# Run 40, call 6 (kernels/NOTES.md "Run 40"): the whole GPU suite on the final code, in four
# gtest shards at once on the one GPU (the suite's host-side reference checks are what take its
# time; call 5's single run passed 280 s before it finished).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs6; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs6; }
for i in 0 1 2 3; do
  GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 270 $B/xpose_gpu_tests > $L/suite-$i.log 2>&1 &
done
wait
for i in 0 1 2 3; do
  echo "shard $i: $(grep -cE '^\[       OK' $L/suite-$i.log) ok, $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' $L/suite-$i.log | tr '\n' ' ')"
done
grep -hE "^\[  FAILED|Failure" $L/suite-*.log | head
echo "ok total: $(cat $L/suite-*.log | grep -cE '^\[       OK'), skipped: $(cat $L/suite-*.log | grep -cE '^\[  SKIPPED \] [A-Z]')"
pack; echo "total ${SECONDS}s"
