#!/usr/bin/env bash
# Run 21, call 12: serpentine tile columns for the skewed kernels (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
S=16411x16411,16387x16387,20011x20011,24001x24001,28001x28001,31013x31013,20000x30000,60001x14009
for run in 1 2; do
timeout 100 $B/bench_kernels --compare --reps 20 --variant default,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-cm-p256-serp,skew-64x64w16-b4-g16k-p256-serp --types f32 --shapes $S > $O/logs/f32-$run.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 20 --variant default,skew-32x64w16-b4-cm,skew-32x64w16-b4-cm-serp --types f64 --shapes $S > $O/logs/f64-$run.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 20 --variant default,skew-32x32-b4-cm,skew-32x32-b4-cm-serp --types c128 --shapes $S > $O/logs/c128-$run.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
done
timeout 200 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*LargerSquareAndRectangular*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |Failure" $O/logs/tests.log | head -5
tar czf $O/run21-serp.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f*.log $O/logs/c*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for t in f32 f64 c128; do for run in 1 2; do grep -E "^$t " $O/logs/$t-$run.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done; done | sed 's/skew-64x64w16-b4-//; s/skew-32x64w16-b4-//; s/skew-32x32-b4-//; s/-p256//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
