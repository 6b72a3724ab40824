#!/usr/bin/env bash
# Run 28, review (kernels/NOTES.md "Review of run 28's change, second pass"): the thin dispatch
# now asks thin_form (one computation for the dispatch and the launch); the dispatch tests, the
# thin candidate tests, the random layouts, and the default at the block points.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.LargerSquare*:CudaKernels.Random*:CudaKernels.ThinCandidate:CudaKernels.SanitizerThin:CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure|OK \]" $L/tests.log | head -12
S=""; for m in 98 104 152 160; do n=$(( (268435456 / m) & ~3 )); S="$S${S:+,}${m}x${n}"; done
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types u16 --shapes $S > $L/blk-u16.log 2>&1
S="$(( (536870912 / 160) & ~3 ))x160,$(( (536870912 / 200) & ~3 ))x200,252x$(( (536870912 / 252) & ~3 ))"
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types u8 --shapes $S > $L/blk-u8.log 2>&1
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++c; key[c]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=c;i++){k=key[i]; printf "%-22s default %s thin %s nothin %s\n", k, x[k",default"], x[k",thin"], x[k",nothin"]}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/blk-u16.log $L/blk-u8.log | tee $L/blk-table.txt
$B/bench_kernel_counters oop:1:24x1000000:thin oop:2:1000x30:thin | tee $L/counters.txt
tar czf $O/logs.tgz -C /tmp logs
echo "total ${SECONDS}s"
