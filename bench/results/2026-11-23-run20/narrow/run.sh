#!/usr/bin/env bash
# Run 20, call 1: the narrow kernels (narrow.cuh, 4-byte words for 1- and 2-byte elements):
# tests of every candidate, racecheck, u8 / u16 against the defaults; then the CLI end-to-end
# tests with --backend cuda at 1 and 2 ranks.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariant*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
grep -E "Failure|FAILED|narrow" $O/logs/tests.log | head -20
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,20000x30000
V8=default,rot-128x128-t512-b3-cm,rot128-t1024-g32,narrow-128-t512-b2-cm,narrow-128-t512-b3-cm,narrow-128-t256-b4-cm,narrow-128-t512-b2,narrow128-t1024-g32,narrow128-t1024-g8
V16=default,rot-128x128-t512-b3-cm,rot128-t1024-g32,narrow-64-t256-b4-cm,narrow-128-t512-b2-cm,narrow64-t512-b2-g32,narrow128-t1024-g32
timeout 200 $B/bench_kernels --compare --reps 20 --variant $V8 --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 200 $B/bench_kernels --compare --reps 20 --variant $V16 --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 240 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$?") | tee -a $O/logs/summary.txt
grep -E 'PASS|FAIL|passed|failed' $O/logs/cli.log | tail -6
tar czf $O/run20-narrow.tgz -C $O logs
for f in u8 u16; do echo "== $f"; grep -E '^(u8|u16) ' $O/logs/$f.log | grep -E 'cand' | awk '{printf "%-4s %-12s %-13s %-24s %7s %6s\n",$1,$2,$3,$4,$6,$7}'; done
