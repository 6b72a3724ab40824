#!/usr/bin/env bash
# Run 24, call 4: the tiled kernels on column bands (TiledBands, -bandNk) against the defaults
# at the goal shapes and at two shapes whose output windows span 8 GB (kernels/NOTES.md, "Run 24").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
timeout 120 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace:CudaKernels.LargerSquareAndRectangular' > $O/logs/tests.log 2>&1; echo "tests rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
for rep in 1 2; do
timeout 150 $B/bench_kernels --compare --reps 20 --variant default,tile-32x64w8-b3-band16k,tile-32x64w8-b3-band8k,tile-32x64w8-b3-band4k --types f64 --shapes 32768x32768,16384x16384,65536x16384 > $O/logs/f64-$rep.log 2>&1; echo "f64 $rep rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
timeout 150 $B/bench_kernels --compare --reps 20 --variant default,tile-64x64w8-band16k,tile-64x64w8-band8k --types f32 --shapes 32768x32768,16384x16384 > $O/logs/f32-$rep.log 2>&1; echo "f32 $rep rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
timeout 150 $B/bench_kernels --compare --reps 20 --variant default,tile-16x16-band8k,tile-16x16-band4k --types c128 --shapes 32768x32768,16384x16384 > $O/logs/c128-$rep.log 2>&1; echo "c128 $rep rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
tar czf $O/run24-call4.tgz -C $O logs
grep -E "PASSED|FAILED" $O/logs/tests.log | tail -3
grep -h -c "FAIL\|mismatch" $O/logs/f*.log $O/logs/c128*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for t in f64 f32 c128; do for rep in 1 2; do grep -E "^$t " $O/logs/$t-$rep.log | grep -E ' cand ' | awk -v r=$rep '{printf "%s %s#%s %s=%s%s\n",$1,$2,r,$4,$7,($9=="ok"?"":"!")}'; done; done | sed 's/tile-[0-9x]*w*[0-9]*-\(b3-\)*//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
