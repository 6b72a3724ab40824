#!/usr/bin/env bash
# Run 43, call 8 (kernels/NOTES.md "Run 43"): c128 in place on high-bandwidth devices where rows
# are off 256 bytes (one 32 x 32 pair a block, groups of 4), held out against the old kernel;
# then the suite without its three slowest out-of-place tests (no out-of-place code changed since
# call 6) and sanitize.sh.
set -uo pipefail
source tests/gpu/call_env.sh 8
bk() { timeout 100 $B/bench_kernels --compare --reps 20 --types c128 "$@"; }
S=14001x14001,10007x10007,18003x18003,6001x6001,16386x16386,4001x4001,16384x16384,2001x2001
for r in 1 2; do
  bk --variant default,multi2-32-g32-p256 --shapes $S > $L/h-r$r.log 2>&1
  bk --variant default,multi2-32-g32-p256 --shapes 3001x3001 --batch 4 > $L/hb4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
pack; cat $L/inplace.txt
tests/gpu/suite_shards.sh $B $L 4 \
  --gtest_filter=-CudaKernels.HighBandwidthLines:CudaKernels.RandomLayoutsOutOfPlace:CudaKernels.TileGridPast65535 \
  > $L/suite.txt 2>&1; echo "suite rc=$? (${SECONDS}s)"; tail -1 $L/suite.txt; pack
timeout 90 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
echo "total ${SECONDS}s"
