#!/usr/bin/env bash
# Run 23, call 2 (prepared, NOT RUN: no device was lent for the rest of the session): the u8
# narrow kernel's edge path as a call (-calledge) against the element edges (-eledge, the library's
# kernel where both matrices' rows are on 16 bytes) and the inlined guarded edges, on whole-tile
# controls and on shapes with partial tiles of that class; in place, the narrow kernels' edge
# pairs through guarded words (-wedge, -calledge) against the element path (kernels/NOTES.md,
# "Run 23").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.NarrowEdge*:CudaKernels.NarrowDefaults:CudaKernels.EveryVariant*:CudaKernels.SanitizerShapes' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.NarrowEdge*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
done
# both matrices' rows on 16 bytes (u8): whole-tile controls, then partial tiles
S=16384x16384,65536x16384,16400x16400,32768x32768,16400x5008,200000x1008,30000x3008,16384x12000
timeout 240 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-cm,narrow-256-t512-b2-cm-calledge,nskew-256x256-t512-b2-n3-cm --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
# in place, n past a multiple of the pair side (256 for u8, 128 for u16) by a little or a lot
P=16384x16384,16400x16400,16411x16411,16584x16584,20000x20000
timeout 200 $B/bench_kernels --compare --reps 10 --variant default,narrow256-t1024-g16-seq-wedge,narrow256-t1024-g16-seq-calledge --types u8 --shapes $P > $O/logs/ip-u8.log 2>&1; echo "ip u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 200 $B/bench_kernels --compare --reps 10 --variant default,narrow128-t512-b2-g8-seq-wedge,narrow128-t512-b2-g8-seq-calledge --types u16 --shapes $P > $O/logs/ip-u16.log 2>&1; echo "ip u16 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run23-wedge2.tgz -C $O logs
grep -E "PASSED|FAILED" $O/logs/tests.log | tail -4
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $O/logs/memcheck.log $O/logs/racecheck.log
grep -h -c "FAIL\|mismatch" $O/logs/u8.log | sed 's/^/fail-lines: /'
grep -E "^u8 " $O/logs/u8.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}' | sed 's/nskew-[^=]*/nskew/;s/narrow-256-t512-b2-cm-calledge/call/;s/narrow-256-t512-b2-cm/inline/' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
for f in ip-u8 ip-u16; do grep -E ' cand-inplace ' $O/logs/$f.log | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/narrow[0-9]*-t[0-9]*-\(b2-\)*g[0-9]*-seq-//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print "inplace " key[i] a[key[i]]}'
