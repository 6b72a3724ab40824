#!/usr/bin/env bash
# Run 19, call 6: the GPU suite (with the batched odd-n in-place test), then the rot128 in-place
# group sizes and the strip kernel at f32 16411^2, 24577^2, 32749^2, twice.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E '^\[  (PASSED|FAILED)|tests? from .* ran' $O/logs/tests.log | tee -a $O/logs/summary.txt
V=default,strip4-32w4-t512-g8-b2-l128-p256s,rot128-t1024-g2-p256,rot128-t1024-g4-p256,rot128-t1024-g8-p256,rot128-t1024-g12-p256,rot128-t1024-g16-p256
for i in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 16411x16411,24577x24577,32749x32749 > $O/logs/groups-$i.log 2>&1; echo "groups-$i rc=$?" | tee -a $O/logs/summary.txt
done
for f in groups-1 groups-2; do echo "== $f"; grep -E '^f32 ' $O/logs/$f.log | grep -E 'memcpy|cand' | awk '{printf "%-12s %-13s %-38s %8s %6s\n",$2,$3,$4,$6,$7}'; grep -A6 '^# compare' $O/logs/$f.log | grep -E '^f32' ; done
tar czf $O/run19-groups.tgz -C $O logs
