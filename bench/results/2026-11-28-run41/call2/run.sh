#!/usr/bin/env bash
# Run 41, call 2 (kernels/NOTES.md "Run 41"): a wider survey of inputs whose rows are on 256
# bytes at both ends: f64 around the class where the lines form lost in call 1, past the row
# bound and small; f32 over 18 shapes. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs2; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs2; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
F64A=2048x16384,6144x16384,15360x16384,16320x16384,17408x16384,8192x16416,12288x16416,4096x32768,8192x32768,12288x32768,8192x24576,12288x24576,4096x65536,8192x65536,2048x8192,4096x8192,6144x8192,12288x20480,12288x16384
F64T=40000x16384,65536x8192,32768x4096,131072x2048,24576x16384,28672x28672,40960x40960,2048x2048,3072x3072,4096x4096,4096x8192,6144x6144
F32S=2048x2048,4096x4096,6144x6144,8192x8192,12288x12288,16384x16384,20480x20480,24576x24576,32768x32768,40960x40960,16384x32768,32768x16384,8192x16384,16384x8192,65536x8192,8192x65536,12288x24576,4096x16384
for r in 1 2; do
  bk --reps 20 --types f64 --variant default,lines-64x64-x4-b6-cm --shapes $F64A > $L/f64a-r$r.log 2>&1
  bk --reps 20 --types f64 --variant default,lines-64x64-x4-b6-cm --shapes $F64T > $L/f64t-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,lines-64x128-x2-b6-cm,lines-64x128-x4-b6-cm,lines-64x64-x2-b6-cm --shapes $F32S > $L/f32-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6} $3=="memcpy"&&$2!="shape"{print b, $2, "memcpy", r, $7}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
