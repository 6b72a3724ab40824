#!/usr/bin/env bash
# Run 22, call 2: the narrow skewed kernel (narrow_skew.cuh) with more loads in flight: tests,
# memcheck, racecheck, then against the defaults on u8 / u16 shapes whose rows are off 4 or 16
# bytes (kernels/NOTES.md, "Run 22").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 240 $B/xpose_gpu_tests --gtest_filter='*NarrowSkew*:*EveryVariantOutOfPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |Failure" $O/logs/tests.log | head -5
for tool in memcheck racecheck; do
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*NarrowSkew*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  tail -1 $O/logs/$tool.log
done
S=16411x16411,24001x24001,60003x16411,5003x100001,16411x45001,16386x16386,16392x16392,16400x16400
N8=nskew-256x256-t512-b2-n1-cm,nskew-256x256-t512-b1-n5-cm,nskew-256x256-t1024-b1-n3-cm,nskew-256x256-t256-b2-n3-cm,nskew-256x256-t512-b2-n1-sweep
N16=nskew-128x128-t512-b2-n1-cm,nskew-128x128-t512-b2-n5-cm,nskew-128x128-t256-b2-n9-cm,nskew-128x128-t1024-b1-n3-cm,nskew-128x128-t512-b2-n5-sweep
timeout 150 $B/bench_kernels --compare --reps 10 --variant default,$N8 --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 150 $B/bench_kernels --compare --reps 10 --variant default,$N16 --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run22-inflight.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u16.log $O/logs/u8.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u8 u16; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/nskew-//; s/-cm//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
