#!/usr/bin/env bash
# Run 37, call 10 (kernels/NOTES.md "Run 37"), on an H100: call 7's small-size pointers in five
# warmed rounds of 100 (a discovery set for a later rule; nothing in the dispatch depends on it).
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs10; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs10; }
bk() { timeout 100 $B/bench_kernels --compare --reps 100 "$@"; }
warm() { timeout 30 $B/bench_kernels --compare --reps 100 --types f32 --variant default --shapes 8192x8192 > /dev/null 2>&1; }
S=500x500,700x700,1000x1000,1200x1200,1500x1500,700x2000,2000x700,512x512,1024x1024,2048x2048
V8=default,tile-32x32w16-any,tile-32x32w8-any
V16=default,tile-16x16-t128,tile-16x16,tile-32x32-any
V4=default,tile-32x32w4-any,skew-64x64w16-b4-cm-p256
for r in 1 2 3 4 5; do
  warm
  bk --types f64 --variant $V8 --shapes $S > $L/f64-b1-r$r.log 2>&1
  bk --batch 4 --types f64 --variant $V8 --shapes 700x700,512x512 > $L/f64-b4-r$r.log 2>&1
  bk --types c128 --variant $V16 --shapes $S > $L/c128-b1-r$r.log 2>&1
  bk --batch 4 --types c128 --variant $V16 --shapes 700x700,512x512 > $L/c128-b4-r$r.log 2>&1
  bk --types f32 --variant $V4 --shapes 1000x1000,1500x1500,2001x2001,700x2000 > $L/f32-b1-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for r in 1 2 3 4 5; do for f in $L/*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack; echo "total ${SECONDS}s"
