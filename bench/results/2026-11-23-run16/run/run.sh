#!/usr/bin/env bash
# Run 16, call 6: the f32 skewed out-of-place kernel with R tiles a block down a column and the
# overlapping input rows kept in a shared-memory ring (skewrun.cuh, candidates *-runR[s]).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests --gtest_filter='CudaKernels.EveryVariantOutOfPlace' > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -20
  for t in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $t $B/xpose_gpu_tests --gtest_filter='CudaKernels.SanitizerVariants' 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" | head -5
  done; } 2>&1 | tee $O/info.txt
cp /tmp/tests.log $O/tests.log
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__inst_executed.sum,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
timeout 200 ncu --clock-control none -k regex:'skew' --metrics $M --csv $B/bench_kernel_counters oop:4:16411x16411:default oop:4:16411x16411:skew-64x64w16-b4-p256-run4s oop:4:16411x16411:skew-64x64w16-b3-p256-run4s > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
V=default,skew-64x64w16-b4-p256-run2,skew-64x64w16-b4-p256-run4,skew-64x64w16-b4-p256-run2s,skew-64x64w16-b4-p256-run4s,skew-64x64w16-b4-p256-run8s,skew-64x64w16-b3-p256-run4,skew-64x64w16-b3-p256-run4s
for i in 1 2 3; do
timeout 150 $B/bench_kernels --compare --types f32 --shapes 16411x16411,16387x16387,20000x30000 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault((r[0],r[4][:70]),{})[r[12]]=r[14]
for (i,k),m in d.items():
    print(i,k)
    print("   "+"  ".join(f"{a.split('.')[0][:28]}={b}" for a,b in sorted(m.items()) if not any(x in a for x in ('atomic','decomp','sysmem','fill'))))
PY
paste <(awk '($3 ~ /^cand/) {printf "%-5s %-12s %-8s %-30s %6s\n",$1,$2,$3,$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare2.log) <(awk '($3 ~ /^cand/) {printf "%6s\n",$7}' $O/compare3.log)
