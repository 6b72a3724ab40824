#!/usr/bin/env bash
# Run 20, call 8: the final record (u8 / u16 defaults: the narrow kernels, 256 x 256 u8 tiles
# on 16-byte rows, in place one tile at a time): the GPU suite, the sanitizers and the full
# bench_kernels table (device_run.sh); the defaults against the kernels they replaced; the CLI
# end-to-end tests with --backend cuda at 1 and 2 ranks.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
timeout 330 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1; echo "device_run rc=$?" | tee -a $O/logs/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests=" $O/logs/record.log | tail -8 | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,20000x30000
V8=default,tile-128x128w16,rot-128x128-t512-b3-cm,narrow-128-t256-b4-cm,tile-128w16-row,rot128-t1024-g32,narrow128-t512-b2-g32
V16=default,tile-64x64w16,rot-128x128-t512-b3-cm,tile-64w16-row,rot128-t1024-g32,narrow128-t1024-g8
timeout 150 $B/bench_kernels --compare --reps 20 --variant $V8 --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 150 $B/bench_kernels --compare --reps 20 --variant $V16 --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 240 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$?") | tee -a $O/logs/summary.txt
grep -E 'PASS|FAIL' $O/logs/cli.log | tail -10
tar czf $O/run20-final.tgz -C $O logs
for f in u8 u16; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-13s %-24s %7s %6s\n",$1,$2,$3,$4,$6,$7}'; done
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
