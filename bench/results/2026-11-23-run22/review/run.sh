#!/usr/bin/env bash
# Run 22, call 7: after the review (narrow_skew_tile on NarrowRow's loads): NarrowSkewCandidates
# under memcheck and racecheck, the u8 / u16 defaults against call 6 (kernels/NOTES.md, "Run 22").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='*NarrowSkew*:*EveryVariantOutOfPlace*:CudaKernels.LargerSquareAndRectangular:CudaKernels.SanitizerShapes' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |Failure" $O/logs/tests.log | head -5
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*NarrowSkew*:CudaKernels.SanitizerShapes' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  tail -1 $O/logs/$tool.log
done
S16=16411x16411,16386x16386,5003x100001,16411x45001,24001x24001,45001x20011,60003x16411,100003x5003
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,rot-128x128-t512-b3-cm --types u16 --shapes $S16 > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
S8=16411x16411,24001x24001,60003x16411,5003x100001,16411x45001,16386x16386,16392x16392
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-cm-rot --types u8 --shapes $S8 > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run22-review.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u16.log $O/logs/u8.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u8 u16; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
