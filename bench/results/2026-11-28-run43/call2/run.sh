#!/usr/bin/env bash
# Run 43, call 2 (kernels/NOTES.md "Run 43"): where the 512-thread large-tile lines forms lead:
# f32 on rows off 16 bytes (U), in the TMA class (T), on 256-byte rows (A); f64 and c128 at the
# goal shapes. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs2; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs2; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
V4=default,lines-128x128-t512-x2-b3-cm,lines-128x128-t512-x4-b3-cm,lines-64x128-x2-b6-cm
U=1201x1201,1601x1601,2201x2201,3001x3001,4001x4001,6001x6001,8001x8001,14001x14001
U=$U,16386x16386,10007x30011,20001x20001,24001x12001,9001x40001
T=20000x30000,12004x12004,8004x8004,6004x6004,26004x26004,30004x4004,4004x30004
A=16384x24576,24576x24576,8192x8192,32768x16384,65536x8192,16384x4096,20480x20480,4096x4096
G=16384x16384,32768x32768,20000x30000,16411x16411,12001x20003,8192x8192
V8=default,lines-64x128-t512-x2-b3-cm,lines-128x64-t512-x2-b3-cm
V16=default,lines-64x64-t512-x2-b3-cm,lines-64x64-t512-x4-b3-cm
for r in 1 2; do
  bk --reps 20 --types f32 --variant $V4 --shapes $U > $L/u-r$r.log 2>&1
  bk --reps 20 --types f32 --variant $V4 --shapes $T > $L/t-r$r.log 2>&1
  bk --reps 20 --types f32 --variant $V4 --shapes $A > $L/a-r$r.log 2>&1
  bk --reps 20 --types f64 --variant $V8 --shapes $G > $L/f64-r$r.log 2>&1
  bk --reps 20 --types c128 --variant $V16 --shapes $G > $L/c128-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/*-r?.log > $L/table.txt
cuobjdump --dump-resource-usage $B/bench_kernels 2>/dev/null | grep -A1 'lines_kernel' \
  | grep -A1 'Li512E' > $L/regs.txt
pack
grep -c . $L/regs.txt; grep -o 'REG:[0-9]*' $L/regs.txt | tr '\n' ' '; echo
grep -v ' memcpy ' $L/table.txt
echo "total ${SECONDS}s"
