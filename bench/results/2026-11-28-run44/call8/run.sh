#!/usr/bin/env bash
# Run 44, call 8 (kernels/NOTES.md "Run 44"): a survey of c128 in-place forms on 256-byte rows.
set -uo pipefail
source tests/gpu/call_env.sh 8
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types c128 --variant \
    default,rot64-t512-g32-b1-p256-fe,rot64-t512-g4-b1-p256-fe,tile-32-i8,tile-32-t128-i8 \
    --shapes 4096x4096,8192x8192,12288x12288,16384x16384,20480x20480,24576x24576,32768x32768 \
    > $L/c128ip-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
pack; cat $L/inplace.txt; echo "total ${SECONDS}s"
