#!/usr/bin/env bash
# Run 16, call 3: the band candidates discarding the ring's dead lines (-d); Nsight Compute time and
# DRAM bytes of the default and two band candidates at f32 16411^2.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantInPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -20
  timeout 200 compute-sanitizer --tool memcheck $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|PASSED|FAILED" | head -5
} 2>&1 | tee $O/info.txt
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size
timeout 200 ncu --clock-control none -k regex:'inplace|band' --metrics $M --csv $B/bench_kernel_counters ip:4:16411:default ip:4:16411:band248-l64-r300-d ip:4:16411:band248-l150-r400-d > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
V=default,band248-l64-r300,band248-l64-r300-d,band248-l100-r300-d,band248-l150-r400-d,band504-l40-r160-d,band120-l128-r600-d
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32 --shapes 16411x16411,16384x16384 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault((r[0],r[4][:48]),{})[r[12]]=r[14]
for (i,k),m in d.items():
    print(i,k); print("   "+"  ".join(f"{a.split('.')[0].replace('__',':')[:30]}={b}" for a,b in m.items()))
PY
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-12s %-24s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
