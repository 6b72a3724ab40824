#!/usr/bin/env bash
# Run 44, call 1 (kernels/NOTES.md "Run 44"): f32 in place held out (the 512-thread rule from n =
# 12000), a survey of f64 / c128 in-place forms on 256-byte rows, f64 out of place at odd shapes.
set -uo pipefail
source tests/gpu/call_env.sh 1
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types f32 --variant default,rot128-t1024-g32-p256-fe \
    --shapes 12289x12289,13001x13001,14003x14003,18001x18001,22003x22003,28001x28001,36001x36001,16400x16400,20002x20002,30000x30000,10007x10007,16384x16384 \
    > $L/f32-r$r.log 2>&1
  bk --types f64 --variant default,tile-64w16-row-b3,tile-64w16-t512-row-b2,tile-32w16-i8 \
    --shapes 8192x8192,16384x16384,20480x20480,24576x24576,32768x32768 > $L/f64ip-r$r.log 2>&1
  bk --types c128 --variant default,tile-32-i8,tile-64-t1024-row,tile-64-t512-row \
    --shapes 8192x8192,12288x12288,16384x16384,20480x20480,24576x24576,32768x32768 \
    > $L/c128ip-r$r.log 2>&1
  bk --types f64 --variant default,lines-64x64-x2-b6-cm,lines-64x64-x8-b6-cm \
    --shapes 16411x16411,16387x16387,12001x12001,20001x20001,24001x16411 > $L/f64oop-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
bench/compare_table.sh --whole $L/f64oop-r?.log > $L/oop.txt
pack; cat $L/inplace.txt $L/oop.txt; echo "total ${SECONDS}s"
