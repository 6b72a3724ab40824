#!/usr/bin/env bash
# Run 34, call 1 (kernels/NOTES.md "Run 34"): on an H200, the high-bandwidth candidates on
# held-out shapes; on an H100, the small-n in-place rules on held-out n.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs1; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs1; }
if grep -q H200 $L/gpu.txt; then
  echo "agenda: H200"
  S=8192x8192,24576x24576,16384x32768,32768x16384,20000x20000,30000x20000,12000x36000,16400x16400,24008x16008
  for r in 1 2; do
    $B/bench_kernels --compare --reps 20 --types f32 --variant default,tmald-64x64,tmald-128x64,tmald-64x32,tma-64x64-t256 --shapes $S > $L/f32-r$r.log 2>&1
    $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-64x64w16-b2,tmald-32x64,tmald-32x32,tma-32x64 --shapes $S > $L/f64-r$r.log 2>&1
    $B/bench_kernels --compare --reps 20 --types c128 --variant default,tile-16x16,tmald-16x32,tile-32x16 --shapes $S > $L/c128-r$r.log 2>&1
    echo "round $r (${SECONDS}s)"; pack
  done
  grep -l -E "FAIL|mismatch" $L/*.log
  echo "== x memcpy: type shape candidate r1 r2"
  for r in 1 2; do for t in f32 f64 c128; do awk -v r=$r '($3=="cand"||$3=="cublas-geam")&&$NF=="ok"{print $1, $2, ($3=="cand"?$4:$4), r, $7}' $L/$t-r$r.log; done; done \
   | sort -k1,1 -k2,2 -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
else
  echo "agenda: H100"
  U8=default,tile-32w1-row; U16=default,tile-32w2-row; F32=default,tile-32w4-row
  for r in 1 2 3; do
    $B/bench_kernels --compare --reps 50 --types u8 --variant $U8 --shapes 900x900,1100x1100,1300x1300,1600x1600,1900x1900,2100x2100,2250x2250,2300x2300,2310x2310,2400x2400,2600x2600 > $L/u8-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 4 --types u8 --variant $U8 --shapes 900x900 > $L/u8-b4-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 2 --types u8 --variant $U8 --shapes 1300x1300,1600x1600 > $L/u8-b2-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --types u16 --variant $U16 --shapes 900x900,1100x1100,1300x1300,1400x1400,1450x1450,1536x1536,1537x1537,1600x1600,1700x1700,2000x2000 > $L/u16-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 2 --types u16 --variant $U16 --shapes 900x900,1100x1100 > $L/u16-b2-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --batch 4 --types u16 --variant $U16 --shapes 700x700 > $L/u16-b4-r$r.log 2>&1
    $B/bench_kernels --compare --reps 50 --types f32 --variant $F32 --shapes 500x500,650x650,777x777,900x900,1000x1000,1023x1023,1025x1025,1100x1100,1150x1150,1300x1300 > $L/f32-r$r.log 2>&1
    echo "round $r (${SECONDS}s)"; pack
  done
  grep -l -E "FAIL|mismatch" $L/*.log
  echo "== in place GB/s: file shape candidate | r1 r2 r3"
  for r in 1 2 3; do for f in $L/*-r$r.log; do b=$(basename $f -r$r.log); awk -v r=$r -v b=$b '$3=="cand-inplace"&&$9=="ok"{print b, $2, $4, r, $6}' $f; done; done \
   | sort -k1,1 -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
fi
pack
echo "total ${SECONDS}s"
