#!/usr/bin/env bash
# Run 19, call 4: the record with rot128-t1024-g1-p256 as the f32 odd-n in-place default. GPU
# tests, compute-sanitizer and the full bench_kernels table (--huge) through device_run.sh; then
# the default against the strip kernel and rot128 in the staggered order on odd f32 sides, and
# f64 rot64 with G = 1 and element-wise diagonals at 16411^2.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
tests/gpu/device_run.sh .gpu-bundle/bin "$O/logs" --huge 2>&1 | tail -34
V=default,strip4-32w4-t512-g8-b2-l128-p256s,rot128-t1024-stag-p256
timeout 200 .gpu-bundle/bin/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 1025x1025,4097x4097,8193x8193,16411x16411,24577x24577 > $O/logs/odd.log 2>&1; echo "odd rc=$?"
timeout 100 .gpu-bundle/bin/bench_kernels --compare --reps 20 --variant default,rot64-t512-g1-b2-p256-dg --types f64 --shapes 16411x16411 > $O/logs/f64.log 2>&1; echo "f64 rc=$?"
grep -E 'cand-inplace|compare|^f(32|64) ' $O/logs/odd.log $O/logs/f64.log | sed 's/^.*logs\///' | head -40
tar czf $O/run19-final.tgz -C $O logs
