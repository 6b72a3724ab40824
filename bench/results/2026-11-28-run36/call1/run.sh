#!/usr/bin/env bash
# Run 36, call 1 (kernels/NOTES.md "Run 36"): u8 / u16 out of place at small sizes, three rules
# held out on fresh shapes (candidates only); then the whole GPU suite on the current code.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs1; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs1; }
V8=default,narrow-128-t256-b4-cm,tile-32x32w1-any
V16=default,narrow-128-t512-b2-cm,nskew-128x256-t512-b2-n3-sweep,tile-32x32w2-any,tile-32x32w4-any
bk() { timeout 60 $B/bench_kernels --compare --reps 30 "$@"; }
for r in 1 2 3; do
  bk --types u8 --variant $V8 --shapes 600x600,850x850,950x950,1020x1020,768x768,1024x1024,520x1900,1900x520,1030x1030,1150x1150,1280x1280,1300x1300 > $L/u8-b1-r$r.log 2>&1
  bk --batch 2 --types u8 --variant $V8 --shapes 700x700 > $L/u8-b2-r$r.log 2>&1
  bk --batch 3 --types u8 --variant $V8 --shapes 550x550 > $L/u8-b3-r$r.log 2>&1
  bk --batch 4 --types u8 --variant $V8 --shapes 600x600 > $L/u8-b4-r$r.log 2>&1
  bk --types u16 --variant $V16 --shapes 600x600,860x860,1150x1150,1290x1290,1024x1024,1200x1200,700x2102,2102x700,601x601,851x851,1001x1001,1021x1021,1410x1410,1700x1700,1100x2900,1151x1151,1301x1301 > $L/u16t-b1-r$r.log 2>&1
  bk --batch 2 --types u16 --variant $V16 --shapes 900x900,701x701 > $L/u16t-b2-r$r.log 2>&1
  bk --batch 4 --types u16 --variant $V16 --shapes 500x500 > $L/u16t-b4-r$r.log 2>&1
  bk --batch 3 --types u16 --variant $V16 --shapes 501x501,800x800 > $L/u16t-b3-r$r.log 2>&1
  bk --types u16 --variant $V16 --shapes 1701x1701,2301x2301,2901x2901,3401x3401,1301x4001,2001x2901,901x7001,4001x1301,2901x2001,7001x901,3401x2301,3801x3801,2901x5001 > $L/u16f-b1-r$r.log 2>&1
  bk --batch 3 --types u16 --variant $V16 --shapes 1701x1701 > $L/u16f-b3-r$r.log 2>&1
  bk --batch 4 --types u16 --variant $V16 --shapes 1101x1101 > $L/u16f-b4-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
timeout 330 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" $L/suite.log | head -20; pack
grep -l -E "FAIL|mismatch" $L/*.log
echo "== out of place GB/s: file shape candidate | r1 r2 r3"
for r in 1 2 3; do for f in $L/u*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
echo "total ${SECONDS}s"
