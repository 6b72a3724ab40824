#!/usr/bin/env bash
# Run 43, call 5 (kernels/NOTES.md "Run 43"): (a) f32 in-place candidates with more blocks an SM;
# (b) the goal snapshot (default and geam, f32 / f64 / c128); (c) engine_e2e.sh on shapes of the
# run's rules; (d) the whole suite in four shards and sanitize.sh. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs5; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs5; }
IP=default,rot96-t768-g32-b2-p256-fe,rot96-t384-g32-b2-p256-fe,rot128-t512-g32-b1-p256-fe
IP=$IP,rot64-t256-g32-b4-p256-fe
for r in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --types f32 --variant $IP \
    --shapes 16411x16411,16387x16387,20001x20001,12001x12001,16384x16384,32768x32768 \
    > $L/ip-r$r.log 2>&1
  timeout 250 $B/bench_kernels --compare --reps 20 --variant default > $L/goals-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/goals-r?.log > $L/goals.txt
awk '$3 == "cand-inplace" && $9 == "ok" {print FILENAME, $1, $2, $4, $6, $7}' $L/*-r?.log \
  | sed "s|$L/||" | sort -k3,3 -k4,4 > $L/inplace.txt
pack
tests/gpu/engine_e2e.sh $B $L float32:24001x13001:2GiB float32:12288x12288:1GiB \
  float32:34004x17004:4GiB > $L/e2e.txt 2>&1; echo "e2e rc=$? (${SECONDS}s)"; tail -4 $L/e2e.txt
pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1; echo "suite+sanitize rc=$? (${SECONDS}s)"
tail -3 $L/device_run.txt; grep -h "EveryVariantInPlace" $L/suite-*.log; pack
cat $L/inplace.txt
bench/compare_table.sh --whole $L/goals-r?.log
echo "total ${SECONDS}s"
