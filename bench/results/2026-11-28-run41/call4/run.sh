#!/usr/bin/env bash
# Run 41, call 4 (kernels/NOTES.md "Run 41"): f32 on inputs whose rows are on 256 bytes at both
# ends, tall and wide, default / lines x2 / lines x4 / Sgeam, two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs4; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs4; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
V=default,lines-64x128-x2-b6-cm,lines-64x128-x4-b6-cm
S=16384x4096,16384x16384,20480x16384,24576x8192,24576x16384,28672x16384,32768x2048,32768x4096,32768x8192,32768x12288,32768x16384,32768x32768,32832x16384,40960x8192,49152x8192,65536x4096,65536x8192,65536x16384,131072x2048,131072x4096,36864x36864,40960x16384,16384x65536,8192x131072,45056x45056,24576x32768
for r in 1 2; do
  bk --reps 20 --types f32 --variant $V --shapes $S > $L/f32-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do b=$(basename $f .log); r=${b##*-r}; b=${b%-r*}; awk -v r=$r -v b=$b '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print b, $2, $4, r, $6} $3=="memcpy"&&$2!="shape"{print b, $2, "memcpy", r, $7}' $f; done \
 | sort -k1,1V -k2,2V -k3,3 -k4,4 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}' > $L/table.txt
pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
