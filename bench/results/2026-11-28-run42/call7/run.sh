#!/usr/bin/env bash
# Run 42, call 7 (kernels/NOTES.md "Run 42"): f32 narrow inputs under 20000 rows in the TMA class
# (default / pre42 / the x2 lines form / Sgeam), a check. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs7; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
for r in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --types f32 \
    --variant default,pre42,lines-64x128-x2-b6-cm \
    --shapes 20000x4004,16004x4004,18004x6004,19996x3004,12004x4004 > $L/narrow-r$r.log 2>&1
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/*-r?.log > $L/table.txt
tar czf $O/logs.tgz -C /tmp logs7
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
