#!/usr/bin/env bash
# Run 42, call 6 (kernels/NOTES.md "Run 42"): the f32 rule in front of the TMA kernel on inputs
# of up to 32768 rows, held out (default / pre42 / Sgeam); the whole suite in four shards;
# sanitize.sh. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs6; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs6; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
IN=22004x14004,28004x10004,21004x30004,25004x18004,30004x4004,32764x8004
for r in 1 2; do
  bk --reps 20 --types f32 --variant default,pre42 --shapes $IN > $L/in-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,pre42 --shapes 33004x12004,40004x12004 \
    > $L/out-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/*-r?.log > $L/table.txt
pack
tests/gpu/suite_shards.sh $B $L 4; echo "suite rc=$? (${SECONDS}s)"; pack
grep -h "HighBandwidthLines" $L/suite-*.log
timeout 90 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
