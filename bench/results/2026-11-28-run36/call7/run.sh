#!/usr/bin/env bash
# Run 36, call 7 (kernels/NOTES.md "Run 36"): the default's slot against its own kernel's at
# 5-10 us transposes with the shared-memory query cached; the whole GPU suite.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs7; }
bk() { timeout 120 $B/bench_kernels --compare --reps 1000 "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
for r in 1 2 3; do
  warm
  bk --types u8 --variant default,tile-128x128w16,tile-32x32w1-any --shapes 256x2560,550x550,1024x1024,1536x4096 > $L/u8-r$r.log 2>&1
  bk --types u16 --variant default,tile-32x32w2-any --shapes 751x751 > $L/u16-r$r.log 2>&1
  bk --batch 2 --types u16 --variant default,tile-32x32w2-any --shapes 501x501 > $L/u16b2-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
for r in 1 2 3; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6, $8}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5"("$6")"; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' | tee $L/table.txt
pack
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|no random case|Failure" $L/suite.log | head -20; pack
echo "total ${SECONDS}s"
