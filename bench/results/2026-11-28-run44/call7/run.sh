#!/usr/bin/env bash
# Run 44, call 7 (kernels/NOTES.md "Run 44"): c128 in place held out (the rotated kernel off
# 256-byte rows), the goal snapshot, the whole suite in four shards and sanitize.sh.
set -uo pipefail
source tests/gpu/call_env.sh 7
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types c128 --variant default,tile-32-g4 \
    --shapes 10007x10007,14001x14001,18003x18003,16386x16386,24001x24001,28003x28003,6001x6001,4001x4001,3001x3001,2801x2801,2001x2001,16384x16384 \
    > $L/c128ip-r$r.log 2>&1
  bk --types c128 --variant default,tile-32-g4 --shapes 3001x3001 --batch 4 > $L/c128ip-b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 250 $B/bench_kernels --compare --reps 20 --variant default > $L/goals-r1.log 2>&1
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/c128ip*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1
echo "suite+sanitize rc=$? (${SECONDS}s)"; tail -3 $L/device_run.txt; pack
cat $L/inplace.txt; grep -E "cand|memcpy|geam" $L/goals-r1.log | awk '{print $1, $2, $3, $4, $6, $7}'
echo "total ${SECONDS}s"
