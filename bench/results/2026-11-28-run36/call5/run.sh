#!/usr/bin/env bash
# Run 36, call 5 (kernels/NOTES.md "Run 36"): u8 on whole 256 x 256 tiles, rule 4 (the tiled
# kernel under 2.5 whole-tile-kernel tiles an SM) held out on fresh shapes; the whole GPU suite;
# memcheck on OutOfPlaceFewTiles.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs5; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs5; }
V8=default,narrow-256-t512-b2-cm-eledge,tile-128x128w16,narrow-128-t256-b4-cm
bk() { timeout 120 $B/bench_kernels --compare --reps 100 "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
for r in 1 2 3 4 5; do
  warm
  bk --types u8 --variant $V8 --shapes 2304x2304,2816x2816,3328x3328,3840x3840,4352x4352,4608x4608,1280x2816,2816x1280,1536x4096,4096x1536,512x4608,4608x512,256x2560,4864x4864,5632x5632,7168x7168,10240x10240,2000x2000,3000x2000,5008x5008 > $L/u8-b1-r$r.log 2>&1
  bk --batch 2 --types u8 --variant $V8 --shapes 1536x1536,3072x3072 > $L/u8-b2-r$r.log 2>&1
  bk --batch 5 --types u8 --variant $V8 --shapes 1024x1024 > $L/u8-b5-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|out of place, (1|2)-byte|no random case|Failure|Expected|Which is|elem " $L/suite.log | head -30; pack
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OutOfPlaceFewTiles:CudaKernels.OneStackNarrow' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY" $L/memcheck.log | head -2; pack
grep -l -E "FAIL|mismatch" $L/*.log
for r in 1 2 3 4 5; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
echo "total ${SECONDS}s"
