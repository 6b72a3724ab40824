#!/usr/bin/env bash
# Run 17, call 2: the walk candidates with cheaper code and chunks of 32 columns (walk.cuh),
# against the odd-n defaults; tests, sanitizers, Nsight Compute and three --compare runs.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran|walk' /tmp/tests.log | head -20
  for t in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
cp /tmp/tests.log $O/tests.log
V=default,walk64-k8-t512-b2-p256,walk64c32-k8-t256-b4-p256,walk64c32-k16-t256-b4-p256,walk64c32-k8-t256-b4,walk128c32-k8-t512-b2-p256
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32 --shapes 16411x16411,16387x16387,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
timeout 100 $B/bench_kernels --compare --types f64 --shapes 16411x16411,16384x16384 --variant default,walk32-k8-t256-b4-p256,walk64c32-k8-t512-b2-p256 --csv $O/compare-f64.csv > $O/compare-f64.log 2>&1; echo "bench f64 rc=$?"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
timeout 200 ncu --clock-control none -k regex:'inplace|walk|skew' --metrics $M --csv $B/bench_kernel_counters ip:4:16411:default ip:4:16411:walk64c32-k8-t256-b4-p256 ip:4:16384:walk64c32-k8-t256-b4-p256 ip:4:16384:default > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault((r[0],r[4][:44]),{})[r[12]]=r[14]
want=("gpu__time","stalled","issue_active","dram__bytes","lts__t_sectors_op","smsp__inst","ltcfabric","dram__throughput")
for (i,k),m in d.items():
    print(i,k)
    for a,b in m.items():
        if any(w in a for w in want): print(f"   {a[:66]:66s} {b}")
PY
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-26s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-26s %6s\n",$1,$2,$3,$4,$7}' $O/compare-f64.log
cd $O && tar czf logs.tgz info.txt tests.log ncu.csv ncu.err compare*.csv && rm -f info.txt tests.log ncu.csv ncu.err compare*.csv
