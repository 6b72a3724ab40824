#!/usr/bin/env bash
# Run 44, call 3 (kernels/NOTES.md "Run 44"): held out, f64 in place (64 x 64 pairs from 6 blocks
# an SM) and f64 out of place (the lines kernel on tall inputs with half as many columns).
set -uo pipefail
source tests/gpu/call_env.sh 3
bk() { timeout 250 $B/bench_kernels --compare --reps 20 "$@"; }
for r in 1 2; do
  bk --types f64 --variant default,tile-32w16-row \
    --shapes 2560x2560,2816x2816,3584x3584,5120x5120,8320x8320,9248x9248,36864x36864,2304x2304,2048x2048 \
    > $L/f64ip-r$r.log 2>&1
  bk --types f64 --variant default,tile-32w16-row --shapes 2048x2048 --batch 2 > $L/f64ip-b2-r$r.log 2>&1
  bk --types f64 --variant default,tile-32w16-row --shapes 1536x1536 --batch 4 > $L/f64ip-b4-r$r.log 2>&1
  bk --types f64 --variant default,tile-32w16-row --shapes 1024x1024 --batch 2 > $L/f64ip-b2s-r$r.log 2>&1
  bk --types f64 --variant default,pre44 \
    --shapes 21001x12001,23003x11503,26001x14001,28001x20001,30011x30011,32001x30001,40001x24001,30001x12001,16411x16411 \
    > $L/f64oop-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6}' $L/*-r?.log \
  | sort -k1,1 -k2,2 -k3,3 | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END{for(k in a) print k a[k]}' \
  | sort > $L/inplace.txt
bench/compare_table.sh --whole $L/f64oop-r?.log > $L/oop.txt
pack; cat $L/inplace.txt $L/oop.txt; echo "total ${SECONDS}s"
