#!/usr/bin/env bash
# Run 37, call 11 (kernels/NOTES.md "Run 37"), on an H100: the small f64 / c128 windows on
# held-out shapes (five warmed rounds of 100), then the whole GPU suite.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs11; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs11; }
bk() { timeout 100 $B/bench_kernels --compare --reps 100 "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
V8=default,skew-32x64w16-b4-cm,tile-32x64w8-b3,tile-32x32w16-any
V16=default,skew-32x32-b4-cm,tile-16x16-t128
for r in 1 2 3 4 5; do
  warm
  bk --types f64 --variant $V8 --shapes 1100x1100,900x1800,1300x900,800x2400,1536x1024,1280x1280,1700x1700,600x600,1001x1100 > $L/f64-b1-r$r.log 2>&1
  bk --batch 2 --types f64 --variant $V8 --shapes 800x800 > $L/f64-b2-r$r.log 2>&1
  bk --types c128 --variant $V16 --shapes 810x810,1100x1100,600x1800,1800x600,900x900,420x420,1700x1700 > $L/c128-b1-r$r.log 2>&1
  bk --batch 2 --types c128 --variant $V16 --shapes 600x600 > $L/c128-b2-r$r.log 2>&1
  bk --batch 3 --types c128 --variant $V16 --shapes 900x900 > $L/c128-b3-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for r in 1 2 3 4 5; do for f in $L/*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
cat $L/table.txt; pack
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|Failure|Expected|Which is" $L/suite.log | head -20; pack
echo "total ${SECONDS}s"
