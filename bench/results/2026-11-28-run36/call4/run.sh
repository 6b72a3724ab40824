#!/usr/bin/env bash
# Run 36, call 4 (kernels/NOTES.md "Run 36"): u8 out of place on whole 256 x 256 tiles at small
# and medium sizes, the whole-tile default against the 128-tile and 32 x 32 kernels.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs4; }
V8=default,narrow-128-t256-b4-cm,tile-32x32w1-any,tile-128x128w16,narrow-256-t512-b2-cm
bk() { timeout 120 $B/bench_kernels --compare --reps 100 "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
for r in 1 2 3 4 5; do
  warm
  bk --types u8 --variant $V8 --shapes 512x512,768x768,1024x1024,1280x1280,1536x1536,1792x1792,2048x2048,2560x2560,3072x3072,3584x3584,4096x4096,5120x5120,6144x6144,8192x8192,512x2048,2048x512,1024x4096,4096x1024,768x3072,3072x768,256x4096,4096x256 > $L/u8-b1-r$r.log 2>&1
  bk --batch 4 --types u8 --variant $V8 --shapes 512x512 > $L/u8-b4-r$r.log 2>&1
  bk --batch 2 --types u8 --variant $V8 --shapes 1024x1024 > $L/u8-b2-r$r.log 2>&1
  bk --batch 3 --types u8 --variant $V8 --shapes 2048x2048 > $L/u8-b3-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for r in 1 2 3 4 5; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
echo "total ${SECONDS}s"
