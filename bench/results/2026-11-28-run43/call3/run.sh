#!/usr/bin/env bash
# Run 43, call 3 (kernels/NOTES.md "Run 43"): (a) the 128 x 128 f32 kernel in the three rules,
# held out (default / pre43b / Sgeam); (b) a survey of it outside the rules' windows; (c) the
# whole suite in four shards and sanitize.sh. Two rounds of 20.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs3; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs3; }
bk() { timeout 250 $B/bench_kernels --compare "$@"; }
U=2101x2101,2601x2601,3501x3501,5001x7001,11001x11001,7001x25001,18001x9001,19001x19001
U=$U,2001x2001
T=10004x14004,7004x7004,15004x22004,24004x30004,28004x20004,18004x8004,10004x6004
A=16384x12288,32768x8192,65536x4096,32768x24576,16384x32768
SA=4096x4096,6144x6144,10240x10240,12288x24576,24576x12288,40960x8192,98304x8192
SA=$SA,131072x6144,32768x2048,16384x8192
ST=3004x3004,4004x4004,5004x5004,6004x3004,32772x20004,33004x33004,40004x12004,50004x8004
ST=$ST,100004x4004
SU=27001x15001,30001x30001,32001x9001,40001x10001,60001x8001,100001x5003
for r in 1 2; do
  for c in U T A; do
    bk --reps 20 --types f32 --variant default,pre43b --shapes ${!c} > $L/h${c,,}-r$r.log 2>&1
  done
  for c in SA ST SU; do
    bk --reps 20 --types f32 --variant default,lines-128x128-t512-x2-b3-cm --shapes ${!c} \
      > $L/${c,,}-r$r.log 2>&1
  done
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh --whole $L/*-r?.log > $L/table.txt
pack
tests/gpu/device_run.sh $B $L --no-bench > $L/device_run.txt 2>&1; echo "suite+sanitize rc=$? (${SECONDS}s)"
tail -3 $L/device_run.txt; grep -h "HighBandwidthLines\|EveryVariantOutOfPlace" $L/suite-*.log; pack
grep -v ' memcpy ' $L/table.txt
echo "total ${SECONDS}s"
