#!/usr/bin/env bash
# Run 44, call 4 (kernels/NOTES.md "Run 44"): a survey of f32 and c128 in-place forms off
# 256-byte rows on the H200.
set -uo pipefail
source tests/gpu/call_env.sh 4
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types f32 --variant \
    default,rot128-t256-g32-b1-p256-fe,rot128-t512-g16-b1-p256-fe,rot128-t512-g64-b1-p256-fe \
    --shapes 16411x16411,12001x12001,24001x24001,30001x30001,16400x16400 > $L/f32ip-r$r.log 2>&1
  bk --types c128 --variant default,tile-32-t128-g4,tile-32-t128-g8,tile-32-g8 \
    --shapes 16411x16411,12001x12001,20001x20001,16387x16387,8191x8191 > $L/c128ip-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
bench/compare_table.sh --whole $L/*-r?.log > $L/oop.txt
pack; cat $L/inplace.txt; echo "total ${SECONDS}s"
