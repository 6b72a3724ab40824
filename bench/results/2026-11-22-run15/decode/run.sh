#!/usr/bin/env bash
# Run 15, call 3: the odd-n strip defaults with the block decode dividing by constants (-cg),
# timed and counted against the defaults.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace:CudaKernels.MultiPairInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12
  for t in memcheck racecheck; do
    timeout 300 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
timeout 200 ncu --clock-control none -k regex:inplace --metrics $M --csv $B/bench_kernel_counters ip:4:16411:default ip:4:16411:strip4-32w4-t512-g8-b2-l128-p256s-cg ip:8:16411:default ip:8:16411:strip4-32w8-t512-g64-b2-l128-p256s-cg ip:4:16384:strip4-32w4-t512-g8-b2-l128-p256s ip:4:16384:strip4-32w4-t512-g8-b2-l128-p256s-cg > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
V=default,strip4-32w4-t512-g8-b2-l128-p256s,strip4-32w4-t512-g8-b2-l128-p256s-cg,strip4-32w8-t512-g64-b2-l128-p256s,strip4-32w8-t512-g64-b2-l128-p256s-cg
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32,f64 --shapes 16411x16411,16387x16387,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault((r[0],r[4][-60:]),{})[r[12]]=r[14]
for (i,k),m in d.items():
    print(i,k); print("   "+"  ".join(f"{a.split('.')[0].replace('__',':')[:30]}={b}" for a,b in m.items()))
PY
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-40s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
