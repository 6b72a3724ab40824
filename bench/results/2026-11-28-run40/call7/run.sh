#!/usr/bin/env bash
# Run 40, call 7 (kernels/NOTES.md "Run 40"): the goal shapes on the final code, default, the
# list before run 40 ("pre40", f64 and c128) and geam, two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs7; }
S=16384x16384,32768x32768,20000x30000,16411x16411
for r in 1 2; do
  timeout 60 $B/bench_kernels --compare --reps 20 --types f64,c128 --variant default,pre40 --shapes $S > $L/goals-r$r.log 2>&1
  pack
done
timeout 40 $B/bench_kernels --compare --reps 20 --types f32 --variant default --shapes $S > $L/goals-f32-r1.log 2>&1
grep -l -E "FAIL|mismatch" $L/*.log
for f in $L/*-r?.log; do r=${f##*-r}; r=${r%.log}; awk -v r=$r '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1, $2, $4, r, $6, $7}' $f; done \
 | sort -k1,1 -k2,2V -k3,3 -k4,4 | tee $L/table.txt
pack; echo "total ${SECONDS}s"
