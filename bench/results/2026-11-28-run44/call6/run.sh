#!/usr/bin/env bash
# Run 44, call 6 (kernels/NOTES.md "Run 44"): a survey of the rotated in-place kernel for c128
# and f64 off 256-byte rows on the H200.
set -uo pipefail
source tests/gpu/call_env.sh 6
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types c128 --variant \
    default,rot64-t512-g32-b1-p256-fe,rot64-t1024-g32-b1-p256-fe,rot64-t512-g4-b1-p256-fe \
    --shapes 16411x16411,12001x12001,20001x20001,16387x16387,8191x8191 > $L/c128ip-r$r.log 2>&1
  bk --types f64 --variant default,rot64-t512-g32-b2-p256-fe,rot64-t256-g32-b3-p256-fe \
    --shapes 16411x16411,12001x12001,20001x20001,16400x16400,8191x8191 > $L/f64ip-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
pack; cat $L/inplace.txt; echo "total ${SECONDS}s"
