#!/usr/bin/env bash
# Run 21, call 13: the skewed kernel with K tiles a thread block cluster, the halo rows from the
# neighbour's shared memory (skew_cluster.cuh; kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |Failure" $O/logs/tests.log | head -5
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $B/bench_kernels --compare --reps 1 --variant skewc2-64x64w16-b4-g16k-p256,skewc4-64x64w16-b4-g16k-p256 --types f32 --shapes 1031x777,2053x130 > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
grep -E "RACECHECK SUMMARY" $O/logs/racecheck.log | tail -1
S=16411x16411,16387x16387,20000x30000,24001x24001,31013x31013,60001x14009
for run in 1 2; do
timeout 100 $B/bench_kernels --compare --reps 20 --variant default,skewc2-64x64w16-b4-g16k-p256,skewc4-64x64w16-b4-g16k-p256,skewc8-64x64w16-b4-g16k-p256 --types f32 --shapes $S > $O/logs/f32-$run.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
done
timeout 100 $B/bench_kernels --compare --reps 20 --variant default,skewc2-32x64w16-b4-g16k,skewc4-32x64w16-b4-g16k --types f64 --shapes $S > $O/logs/f64-1.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 20 --variant default,skewc2-32x32-b4-g16k,skewc4-32x32-b4-g16k --types c128 --shapes $S > $O/logs/c128-1.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run21-cluster.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f*.log $O/logs/c*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for t in f32 f64 c128; do for f in $O/logs/$t-*.log; do grep -E "^$t " $f | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done; done | sed 's/-64x64w16-b4-g16k-p256//; s/-32x64w16-b4-g16k//; s/-32x32-b4-g16k//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
