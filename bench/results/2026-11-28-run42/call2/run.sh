#!/usr/bin/env bash
# Run 42, call 2 (kernels/NOTES.md "Run 42"): the c128 lines rule (12 to 20 tiles an SM) held out
# (default / pre42 / Zgeam); f32 surveys: the TMA class (rows on 16 bytes, off 256) against the
# lines forms, and tiles writing 512-byte output pieces at the aligned goal shapes; the whole
# suite in four shards; sanitize.sh. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs2; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
cuobjdump --dump-resource-usage $B/bench_kernels 2>/dev/null | grep -A1 'lines_kernel' \
  | grep -o 'LinesConfigILi[0-9ELi]*E.*\|REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*' \
  | paste - - | sed 's/ELi/,/g; s/LinesConfigILi//' | sort -u > $L/lines-regs.txt
pack() { tar czf $O/logs.tgz -C /tmp logs2; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
N=lines-128x64-x4-b6-cm,lines-128x64-x2-b4-cm,lines-128x128-x4-b3-cm,lines-128x128-x8-b3-cm,lines-128x128-t512-x2-b2-cm
for r in 1 2; do
  bk --reps 20 --types c128 --variant default,pre42 \
    --shapes 1411x1411,1555x1555,1263x1401,1700x1300,1410x1410,1201x1601 > $L/c128in-r$r.log 2>&1
  bk --reps 20 --types c128 --variant default,pre42 --shapes 1001x1001 --batch 2 \
    > $L/c128b2-r$r.log 2>&1
  bk --reps 20 --types c128 --variant default,pre42 --shapes 1651x1651,1151x1151 \
    > $L/c128out-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,lines-64x128-x4-b6-cm,lines-64x128-x2-b6-cm,$N \
    --shapes 20000x30000,30000x20000,10000x30004,16000x24020,12004x12004,8004x8004 \
    > $L/f32tma-r$r.log 2>&1
  bk --reps 20 --types f32 --variant default,$N \
    --shapes 16384x16384,32768x32768,16384x32768,32768x16384 > $L/f32al-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/*-r?.log > $L/table.txt
pack
tests/gpu/suite_shards.sh $B $L 4; echo "suite rc=$? (${SECONDS}s)"; pack
grep -h "HighBandwidthLines\|EveryVariantOutOfPlace" $L/suite-*.log
timeout 90 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $L/sanitize.log 2>&1
echo "sanitize rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $L/sanitize.log; pack
cat $L/lines-regs.txt
awk '{printf "%s %s %s", $1,$2,$3; for(i=4;i<=NF;i++) printf " %d", $i; print ""}' $L/table.txt
echo "total ${SECONDS}s"
