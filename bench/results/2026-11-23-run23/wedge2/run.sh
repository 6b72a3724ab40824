#!/usr/bin/env bash
# Run 23, call 2: call 1 with the edge path as a call (__noinline__): tests, memcheck and racecheck,
# the u8 kernels' local stores, and the new edges against the old (-eledge) and the narrow
# skewed kernel where output rows are on 16 bytes (kernels/NOTES.md, "Run 23").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 150 $B/xpose_gpu_tests --gtest_filter='CudaKernels.NarrowEdgeTiles:CudaKernels.NarrowDefaults:CudaKernels.EveryVariantOutOfPlace:CudaKernels.SanitizerShapes:CudaKernels.LargerSquareAndRectangular' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.NarrowEdgeTiles' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
done
CO=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
if [ -n "$CO" ]; then
  $CO -sass $B/bench_kernels > $O/logs/sass.txt 2>/dev/null
  awk '/Function : .*narrow_kernel/{f=$3} /Function : /&&!/narrow_kernel/{f=""} f&&/STL/{n[f]++} f&&/LDL/{l[f]++} END{for(k in n) print "STL", n[k], "LDL", l[k], k}' $O/logs/sass.txt | tee $O/logs/stl.txt
  gzip -f $O/logs/sass.txt
fi
S=16384x5003,200000x1001,30000x3001,65536x1001,100000x5003,16400x9001,16384x12003,16384x9001,16384x16411,8192x20001,60000x16411,16384x16384,65536x16384,16400x16400,16584x16584
timeout 200 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-sweep,narrow-256-t512-b2-sweep-eledge,nskew-256x256-t512-b2-n3-sweep --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 200 $B/bench_kernels --compare --reps 10 --variant default,narrow-128-t512-b2-sweep,narrow-128-t512-b2-sweep-eledge,nskew-128x256-t512-b2-n3-sweep --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run23-wedge2.tgz -C $O logs
grep -E "PASSED|FAILED" $O/logs/tests.log | tail -4
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $O/logs/memcheck.log $O/logs/racecheck.log
grep -h -c "FAIL\|mismatch" $O/logs/u8.log $O/logs/u16.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u8 u16; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand' | awk '{printf "%s %s %s%s=%s%s\n",$1,$2,($3=="cand-inplace"?"ip:":""),$4,$7,($9=="ok"?"":"!")}'; done | sed 's/nskew-[^=]*/nskew/;s/narrow-[0-9]*-t512-b2-sweep-eledge/eledge/;s/narrow-[0-9]*-t512-b2-sweep/narrow/' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
