#!/usr/bin/env bash
# Run 42, call 5 (kernels/NOTES.md "Run 42"): f32 where the TMA kernel runs on H200s (rows on 16
# bytes, the output's off 256), the x2 / x4 lines forms against it on inputs taller than 20000
# rows. Two rounds.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs5; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs5; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
V=default,lines-64x128-x2-b6-cm,lines-64x128-x4-b6-cm
S=24004x12004,30000x20000,40004x8004,60004x6004,100004x4004,32004x16004,26004x26004,50004x2004
for r in 1 2; do
  bk --reps 20 --types f32 --variant $V --shapes $S > $L/tma-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/*-r?.log > $L/table.txt
pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
