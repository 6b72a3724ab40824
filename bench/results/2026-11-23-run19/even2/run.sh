#!/usr/bin/env bash
# Run 19, call 15: the new f32 in-place dispatch (word kernels only on 256-byte rows) at even n;
# f64 and c128 word kernels against their odd-n kernels at even n off 256 bytes.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*InPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant default,tile-64w16-row,rot128-t1024-g32-p256 --types f32 --shapes 16384x16384,16400x16400,16392x16392,16416x16416,20000x20000,24000x24000,30000x30000 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant default,strip4-32w8-t512-g64-b2-l128-p256s --types f64 --shapes 16384x16384,16400x16400,16392x16392,20000x20000,30000x30000 > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 250 $B/bench_kernels --compare --reps 20 --variant default,multi2-32-g32-p256 --types c128 --shapes 16384x16384,16392x16392,16386x16386,20001x20001 > $O/logs/c128.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run19-even2.tgz -C $O logs
for f in f32 f64 c128; do echo "== $f"; grep -E '^(f32|f64|c128) ' $O/logs/$f.log | grep -E 'cand-in' | awk '{printf "%-4s %-12s %-36s %7s %6s\n",$1,$2,$4,$6,$7}'; done
