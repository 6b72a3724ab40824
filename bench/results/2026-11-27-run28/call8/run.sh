#!/usr/bin/env bash
# Run 28, call 8 (kernels/NOTES.md "Run 28, second part"): the record on the final code (the tall
# side in P x P blocks as kernels of their own): device_run.sh; thin of this build against
# 2398c41's (bench_kernels_r28a) at call 7's shapes; the CLI tests with --backend cuda at 1 and 2
# ranks.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 330 tests/gpu/device_run.sh $B $L/record > $L/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"
declare -A SZ=([u8]=1 [u16]=2)
shapes() {
  local t=$1 bytes=$2 par=$3; shift 3; local S="" m n
  for m in "$@"; do
    n=$(( bytes / (m * ${SZ[$t]}) ))
    case $par in a4) n=$(( n & ~3 ));; odd) n=$(( n | 1 ));; esac
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  echo "$S"
}
for t in u8 u16; do
  K="$(shapes $t 536870912 a4 4 8 12 24 64 128 200 3 6 9 13),$(shapes $t 536870912 odd 4 8 12 24 64 128 200 3 13)"
  for b in bench_kernels_r28a bench_kernels; do
    timeout 90 $B/$b --compare --reps 10 --variant thin --types $t --shapes $K > $L/blk-$t-$b.log 2>&1
    awk '$3=="cand"{print $7 ($9=="ok"?"":"!")}' $L/blk-$t-$b.log > $L/blk-$t-$b.col
  done
done
echo "blocks (${SECONDS}s)"
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 200 bench/run_pipeline_gpu.sh > $L/cli.log 2>&1; echo "cli rc=$? (${SECONDS}s)")
tar czf $O/logs.tgz -C /tmp logs
echo "== record"; cat $L/record.log
echo "== thin x memcpy: 2398c41 / this build"
for t in u8 u16; do
  paste <(awk '$3=="cand"{print $1, $2}' $L/blk-$t-bench_kernels_r28a.log) $L/blk-$t-bench_kernels_r28a.col $L/blk-$t-bench_kernels.col
done
echo "== cli"; grep -cE "^PASS" $L/cli.log; grep -E "^FAIL" $L/cli.log
echo "total ${SECONDS}s"
