#!/usr/bin/env bash
# Run 26, call 8: the thin kernel with slabs of about 32 KiB where input columns are short, and
# where input rows are short up to m = 5 (1024-byte slab rows from 6 to 32): tests (ThinCandidate, the random layouts, the hand-picked ones), memcheck and
# racecheck on ThinCandidate, default and thin at m = 2 .. 32 and on call 6's held-out shapes
# (kernels/NOTES.md "Run 26").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
$B/xpose_gpu_tests --gtest_filter='CudaKernels.Thin*:CudaKernels.Random*:CudaKernels.Larger*:CudaKernels.Sanitizer*:CudaKernels.TileGrid*:CudaKernels.Small*:CudaKernels.Pitched*' > $O/logs/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|Failure" $O/logs/tests.log | head
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*:*SanitizerRandomLayouts*' > $O/logs/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|FAILED" $O/logs/memcheck.log | head -3
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*' > $O/logs/racecheck.log 2>&1
echo "racecheck rc=$? (${SECONDS}s)"; grep -E "RACECHECK SUMMARY|FAILED" $O/logs/racecheck.log | head -3
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
declare -A H
H[u8]=9844627x67,176220462x2,35496435x12,14131567x53,43x8864532,9724318x68
H[u16]=14x10993304,70005655x4,256872365x2,35x6198260,12098873x17,18238072x12,15610195x11,68742746x4
H[f32]=3x44070483,11x6604266,2983766x32,5084627x20,6126946x32,2x86741696,25328902x8,63541350x2
H[f64]=9191012x5,4074725x13,8x13657210,9x7363456
H[c128]=19505425x3,2x19487822,3x8549339
for t in u8 u16 f32 f64 c128; do
  L=""
  for m in 2 3 4 5 8 12 16 24 32; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    L="$L${L:+,}${m}x${n},${n}x${m}"
  done
  L="$L,${H[$t]}"
  timeout 100 $B/bench_kernels --compare --reps 10 --variant default,thin --types $t --shapes $L > $O/logs/$t.log 2>&1
  echo "$t rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
for t in u8 u16 f32 f64 c128; do
  awk -v t=$t '$1==t && $3=="cand" {x[$2","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "$2"/"$4; if(!($2 in o)){o[$2]=++n; k[n]=$2}}
               END{for(i=1;i<=n;i++) printf "%-5s %-16s default %s thin %s\n", t, k[i], x[k[i]",default"], (k[i]",thin" in x ? x[k[i]",thin"] : "-");
                   if (bad!="") print "NOT VERIFIED:" bad}' $O/logs/$t.log
done | tee $O/logs/table.txt
