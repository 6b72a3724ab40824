#!/usr/bin/env bash
# Run 43, call 6 (kernels/NOTES.md "Run 43"): the final code's suite in four shards and
# sanitize.sh; a survey of f64 / c128 in place on the H200 (one round of 20).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs6; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs6; }
V=default,strip4-32w8-t512-g64-b2-l128-p256,multi2-32w8-g16,tile-64w8-t512-g4,tile-32w16-i8
V=$V,strip8-32w8-t1024-g16,realign-64-row-b2,tile-32-g4,multi2-32-g16,multi2-32-g32-p256
V=$V,strip2-32-g32,tile-32-i8,tile-16-row
timeout 200 $B/bench_kernels --compare --reps 20 --types f64,c128 --variant $V \
  --shapes 16384x16384,32768x32768,16411x16411 > $L/ip-r1.log 2>&1
awk '$3 == "cand-inplace" && $9 == "ok" {print $1, $2, $4, $6, $7}' $L/ip-r1.log \
  | sort -k1,1 -k2,2 -k4,4nr > $L/inplace.txt
grep -l -E "FAIL|mismatch" $L/*.log
echo "survey (${SECONDS}s)"; pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1; echo "suite+sanitize rc=$? (${SECONDS}s)"
tail -3 $L/device_run.txt; grep -h "SanitizerRun33\|EveryVariantInPlace" $L/suite-*.log; pack
cat $L/inplace.txt
echo "total ${SECONDS}s"
