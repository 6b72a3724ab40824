#!/usr/bin/env bash
# Run 44, call 2 (kernels/NOTES.md "Run 44"): f64 in place held out (64 x 64 pairs on 256-byte
# rows), a survey of c128 in-place forms on 256-byte rows, f64 out of place on tall inputs.
set -uo pipefail
source tests/gpu/call_env.sh 2
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types f64 --variant default,tile-32w16-row \
    --shapes 2048x2048,3072x3072,4096x4096,6144x6144,10240x10240,12288x12288,14336x14336,18432x18432,28672x28672,40000x40000 \
    > $L/f64ip-r$r.log 2>&1
  bk --types f64 --variant default,tile-32w16-row --shapes 2048x2048 --batch 4 \
    > $L/f64ip-b4-r$r.log 2>&1
  bk --types c128 --variant default,tile-32-i8,tile-32-t128-row,tile-32-t128-i8 \
    --shapes 8192x8192,12288x12288,16384x16384,20480x20480,24576x24576,32768x32768,4096x4096 \
    > $L/c128ip-r$r.log 2>&1
  bk --types f64 --variant default,lines-64x64-x4-b6-cm,lines-64x64-x8-b6-cm \
    --shapes 24001x16411,30001x12001,40001x8001,25001x25001,22001x18001,16411x24001 \
    > $L/f64oop-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print FILENAME ~ /-b4-/ ? $1"x4" : $1, $2, $4, $6}' \
  $L/*-r?.log | sort -k1,1 -k2,2 -k3,3 \
  | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' | sort > $L/inplace.txt
bench/compare_table.sh --whole $L/f64oop-r?.log > $L/oop.txt
pack; cat $L/inplace.txt $L/oop.txt; echo "total ${SECONDS}s"
