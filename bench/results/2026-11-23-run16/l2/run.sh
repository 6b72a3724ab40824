#!/usr/bin/env bash
# Run 16, call 4: which L2 sub-unit is busy (Nsight Compute's breakdown of lts__throughput) for
# the copy kernel and the library's f32 defaults at 16411^2 and 16384^2, committed code.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/info.txt
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
timeout 300 ncu --clock-control none -k regex:'copy16|tiled|skew|inplace|tma_load' --metrics $M --csv $B/bench_kernel_counters copy:4:16411x16411 oop:4:16411x16411 ip:4:16411 copy:4:16384x16384 oop:4:16384x16384 ip:4:16384 > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault((r[0],r[4][:44]),{})[r[12]]=r[14]
names=sorted({m for v in d.values() for m in v})
for (i,k),m in d.items():
    print(i,k)
    for a in names:
        if a in m: print(f"   {a[:70]:70s} {m[a]}")
PY
