#!/usr/bin/env bash
# Run 34, call 1b (kernels/NOTES.md "Run 34"): on the same warm H200 as call 1, every
# out-of-place candidate at four of call 1's shapes, one round of 10 (a survey, no rule).
source .gpu-bundle/env.sh; B=.gpu-bundle/bin; L=/tmp/logs2; mkdir -p $L; SECONDS=0
for t in f32 f64 c128; do
  timeout 250 $B/bench_kernels --compare --reps 10 --types $t --shapes 24576x24576,20000x20000,16400x16400,30000x20000 > $L/all-$t.log 2>&1
  echo "$t rc=$? ${SECONDS}s"
done
tar czf $OUT/logs2.tgz -C /tmp logs2
for t in f32 f64 c128; do
  awk '($3=="cand" || $3=="cublas-geam")&&$9=="ok" {print $1, $2, $4, $7}' $L/all-$t.log | sort -k2,2 -k4,4nr | awk '{k=$2; n[k]++; if (n[k]<=6 || $3=="default") print}'
done
