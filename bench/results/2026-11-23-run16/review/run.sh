#!/usr/bin/env bash
# Run 16 review check: bench_kernels and bench_copy_ceiling after their counts went through
# parse_whole (bench/arg_list.h): good counts run and verify, bad ones exit with status 2.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  $B/bench_kernels --compare --types f32 --shapes 4096x4096,4099x4099 --variant default --reps 5 2>&1 | tail -8; echo "bench_kernels rc=$?"
  $B/bench_kernels --reps 5x; echo "bench_kernels --reps 5x rc=$?"
  $B/bench_copy_ceiling --mib 256 --reps 3 2>&1 | grep -cE ' ok$| ok ' ; $B/bench_copy_ceiling --mib 256 --reps 3 > /tmp/cc.log 2>&1; echo "bench_copy_ceiling rc=$?"; grep -ciE 'wrong|fail' /tmp/cc.log
  $B/bench_copy_ceiling --reps abc; echo "bench_copy_ceiling --reps abc rc=$?"
} 2>&1 | tee $O/info.txt
