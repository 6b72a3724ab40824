#!/usr/bin/env bash
# Run 27, call 5 (kernels/NOTES.md "Run 27"): u16 short rows off 4 bytes, thin up to 60 rows:
# LargerSquareAndRectangular (range ends, 60 / 61 off 4 bytes), the random layouts, ThinCandidate;
# default against thin and nothin at 58, 60, 62, 64 rows off 4 bytes.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests --gtest_filter='CudaKernels.LargerSquare*:CudaKernels.Random*:CudaKernels.ThinCandidate:CudaKernels.SanitizerThin' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|Failure" $L/tests.log | head
grep -E "out of place,|in place," $L/tests.log | head -5
S=""; for m in 58 60 62 64; do n=$(( (268435456 / m) | 1 )); S="$S${S:+,}${m}x${n}"; done
timeout 40 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types u16 --shapes $S > $L/held-u16.log 2>&1
echo "held rc=$? (${SECONDS}s)"
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=n;i++){k=key[i]; printf "%-24s default %s thin %s nothin %s\n", k, x[k",default"], x[k",thin"], x[k",nothin"]}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/held-u16.log | tee $L/held-table.txt
tar czf $O/logs.tgz -C /tmp logs
echo "total ${SECONDS}s"
