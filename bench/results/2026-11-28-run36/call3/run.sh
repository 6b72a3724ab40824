#!/usr/bin/env bash
# Run 36, call 3 (kernels/NOTES.md "Run 36"): rules 1'' (u8), 2' and 3' (u16) in the dispatch,
# five rounds of 100 runs with the card warmed before each; the whole GPU suite; memcheck on
# OutOfPlaceFewTiles.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs3; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs3; }
V8=default,narrow-128-t256-b4-cm,narrow-256-t512-b2-cm-eledge,tile-32x32w1-any
V16=default,narrow-128-t512-b2-cm,nskew-128x256-t512-b2-n3-sweep,tile-32x32w2-any
bk() { timeout 90 $B/bench_kernels --compare --reps 100 "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
for r in 1 2 3 4 5; do
  warm
  bk --types u8 --variant $V8 --shapes 550x550,750x750,1010x1010,600x1500,1500x600,300x3000,3000x300,1000x700,400x2400,650x650,800x800,800x1000,900x900,990x990,2400x400,896x896,1024x900,768x768 > $L/u8-b1-r$r.log 2>&1
  bk --batch 2 --types u8 --variant $V8 --shapes 650x650,600x600 > $L/u8-b2-r$r.log 2>&1
  bk --batch 4 --types u8 --variant $V8 --shapes 400x400,450x450 > $L/u8-b4-r$r.log 2>&1
  warm
  bk --types u16 --variant $V16 --shapes 551x551,751x751,951x951,1011x1011,700x700,1020x1020,501x1901,1901x501,651x651,901x901,301x2501,2501x301 > $L/u16t-b1-r$r.log 2>&1
  bk --batch 2 --types u16 --variant $V16 --shapes 601x601,501x501 > $L/u16t-b2-r$r.log 2>&1
  bk --batch 3 --types u16 --variant $V16 --shapes 451x451 > $L/u16t-b3-r$r.log 2>&1
  bk --types u16 --variant $V16 --shapes 1401x1401,1901x1901,2401x2401,1501x3301,3301x1501,1201x4801,4801x1201,2101x2801,1601x1601,2201x2201,1201x3601,3601x1201,2501x2201,2701x2701,6001x1101 > $L/u16f-b1-r$r.log 2>&1
  bk --batch 2 --types u16 --variant $V16 --shapes 1601x1601 > $L/u16f-b2-r$r.log 2>&1
  bk --batch 3 --types u16 --variant $V16 --shapes 1201x1201 > $L/u16f-b3-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|out of place, (1|2)-byte|no random case|Failure|Expected|Which is|elem " $L/suite.log | head -30; pack
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.OutOfPlaceFewTiles' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY" $L/memcheck.log | head -2; pack
grep -l -E "FAIL|mismatch" $L/*.log
for r in 1 2 3 4 5; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
echo "total ${SECONDS}s"
