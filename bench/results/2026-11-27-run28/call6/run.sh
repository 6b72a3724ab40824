#!/usr/bin/env bash
# Run 28, call 6 (kernels/NOTES.md "Run 28"): the record on the final code (run 27's u16 loop
# whole): device_run.sh (GPU suite, sanitizers, goal table); thin of this build against run 27's
# at call 4's shapes (u16 twice); the CLI tests with --backend cuda at 1 and 2 ranks.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 330 tests/gpu/device_run.sh $B $L/record > $L/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
shapes() {
  local t=$1 bytes=$2 par=$3; shift 3; local S="" m n
  for m in "$@"; do
    n=$(( bytes / (m * ${SZ[$t]}) ))
    case $par in a4) n=$(( n & ~3 ));; odd) n=$(( n | 1 ));; esac
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  echo "$S"
}
for tr in u8:1 u16:1 f32:1 u16:2; do
  t=${tr%:*}; r=${tr#*:}
  if [ ${SZ[$t]} -lt 4 ]; then
    K="$(shapes $t 536870912 a4 3 8 24 64 128 200),$(shapes $t 536870912 odd 3 8 24 64 128 200)"
  else
    K="$(shapes $t 536870912 any 3 8 24 64 128)"
  fi
  for b in bench_kernels_r27 bench_kernels; do
    timeout 60 $B/$b --compare --reps 10 --variant thin --types $t --shapes $K > $L/step-$t-$b-$r.log 2>&1
    awk '$3=="cand"{print $7 ($9=="ok"?"":"!")}' $L/step-$t-$b-$r.log > $L/step-$t-$b-$r.col
  done
done
echo "step (${SECONDS}s)"
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 200 bench/run_pipeline_gpu.sh > $L/cli.log 2>&1; echo "cli rc=$? (${SECONDS}s)")
tar czf $O/logs.tgz -C /tmp logs
echo "== record"; cat $L/record.log
grep -E "out of place,|in place," $L/record/tests.log | head -10
echo "== thin x memcpy: r27 / this build"
for t in u8 u16 f32; do
  c=(); for r in 1 2; do [ -f $L/step-$t-bench_kernels-$r.col ] && c+=($L/step-$t-bench_kernels_r27-$r.col $L/step-$t-bench_kernels-$r.col); done
  paste <(awk '$3=="cand"{print $1, $2}' $L/step-$t-bench_kernels_r27-1.log) "${c[@]}"
done
echo "== cli"; grep -E "passed|failed|FAIL|OK|ran" $L/cli.log | tail -12
echo "total ${SECONDS}s"
