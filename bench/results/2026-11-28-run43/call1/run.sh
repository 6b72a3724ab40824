#!/usr/bin/env bash
# Run 43, call 1 (kernels/NOTES.md "Run 43"): (a) f32 in the TMA class on inputs of 20001-32768
# rows with at least half as many columns as rows, held out (default / pre43 / Sgeam), with two
# controls outside; (b) lines-128x128-t512-x2-b3-cm at the aligned and unaligned goal shapes;
# (c) the whole suite in four shards and sanitize.sh. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs1; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs1; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
IN=21004x11004,23004x12004,26004x13004,27004x15004,31004x20004,32764x24004,29004x29004
IN=$IN,20404x40004
SV=16384x16384,32768x32768,16411x16411,12001x20003
for r in 1 2; do
  bk --reps 20 --types f32 --variant default,pre43 --shapes $IN > $L/in-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,pre43 --shapes 30004x14004,32772x20004 \
    > $L/out-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,lines-128x128-t512-x2-b3-cm --shapes $SV \
    > $L/sv-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/*-r?.log > $L/table.txt
pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1; echo "suite+sanitize rc=$? (${SECONDS}s)"
tail -3 $L/device_run.txt; grep -h "HighBandwidthLines\|EveryVariantOutOfPlace" $L/suite-*.log; pack
cuobjdump --dump-resource-usage $B/bench_kernels 2>/dev/null | grep -A1 'lines_kernel' \
  | grep -B1 'REG' | grep -A1 'LinesConfigILi4ELi128ELi128ELi512' | head -4 > $L/regs.txt; pack
cat $L/table.txt
echo "total ${SECONDS}s"
