#!/usr/bin/env bash
# Run 43, call 7 (kernels/NOTES.md "Run 43"): in place on the H200, c128 and f32 leads over odd
# and even n, two rounds of 20 (a survey for the next run).
set -uo pipefail
source tests/gpu/call_env.sh 7
bk() { timeout 200 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types c128 --variant default,tile-32-g4,tile-32-i8,multi2-32-g32-p256 \
    --shapes 16411x16411,16387x16387,12001x12001,20001x20001,8191x8191,16384x16384,24576x24576 \
    > $L/c128-r$r.log 2>&1
  bk --types f32 --variant default,rot128-t512-g32-b1-p256-fe \
    --shapes 16411x16411,16387x16387,12001x12001,20001x20001,8191x8191,24001x24001,30001x30001 \
    > $L/f32-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
pack; cat $L/inplace.txt; echo "total ${SECONDS}s"
