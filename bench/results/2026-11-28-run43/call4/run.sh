#!/usr/bin/env bash
# Run 43, call 4 (kernels/NOTES.md "Run 43"): three f32 rules held out against pre43b (default /
# pre43b / Sgeam): (U') rows off 16 bytes from 10 tiles an SM at any height, (A') 256-byte rows
# on any pitch from 60, (T') the TMA class's wide inputs of any height; then the whole suite in
# four shards and sanitize.sh; (d) f32 in place at odd n, a survey. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs4; }
bk() { timeout 250 $B/bench_kernels --compare --reps 20 --types f32 --variant default,pre43b "$@"; }
U=3201x3201,3801x3801,4501x4501,1801x8001,25001x13001,45001x9001,70001x6001,150001x3001
U=$U,35001x35001,3101x3101,2601x2601
A=9216x9216,12288x12288,8192x16384,20480x10240,49152x8192,28672x28672,196608x4096,7168x7168
IP=default,rot128-t1024-g32-p256-fe,rot64-t512-g4-b2-p256-fe,rot64-t512-g4-b2-p256
IP=$IP,strip4-32w4-t512-g8-b2-l128-p256s,multi4-32w4-g8-b2,tile-64w4-t512-g2
T=34004x17004,36004x24004,40004x40004,45004x30004,60004x32004,50004x8004
for r in 1 2; do
  bk --shapes $U > $L/u-r$r.log 2>&1
  bk --shapes 2001x2001 --batch 4 > $L/ub4-r$r.log 2>&1
  bk --shapes $A > $L/a-r$r.log 2>&1
  bk --shapes $T > $L/t-r$r.log 2>&1
  timeout 250 $B/bench_kernels --compare --reps 20 --types f32 --variant $IP \
    --shapes 16411x16411,16387x16387,16384x16384 > $L/ip-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/*-r?.log > $L/table.txt
pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1; echo "suite+sanitize rc=$? (${SECONDS}s)"
tail -3 $L/device_run.txt; grep -h "HighBandwidthLines\|EveryVariantOutOfPlace" $L/suite-*.log; pack
grep -v ' memcpy ' $L/table.txt
echo "total ${SECONDS}s"
