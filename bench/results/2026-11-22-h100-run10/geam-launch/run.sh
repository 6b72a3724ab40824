#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,serial,driver_version,clocks.max.sm,clocks.max.mem,ecc.mode.current --format=csv,noheader | tee $O/gpu.txt
M=launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
timeout 300 ncu --clock-control none -k regex:'geam|tiled_kernel|skew_kernel|tma_load' --launch-count 400 --metrics $M --csv $B/bench_kernels --variant default --reps 1 > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10 and r[0]!="ID"]
d=collections.OrderedDict()
for r in rows: d.setdefault(r[0],{'name':r[4]})[r[12]]=r[14]
seen=set()
for i,m in d.items():
    key=(m['name'],m.get('launch__grid_size'))
    if key in seen: continue
    seen.add(key)
    print(i, m['name'][:110])
    print('    grid',m.get('launch__grid_size'),'block',m.get('launch__block_size'),'regs',m.get('launch__registers_per_thread'),'smem',m.get('launch__shared_mem_per_block_static'),m.get('launch__shared_mem_per_block_dynamic'),'t_us',m.get('gpu__time_duration.sum'),'dram%',m.get('dram__throughput.avg.pct_of_peak_sustained_elapsed'))
PY
timeout 120 $B/bench_kernels --variant default --csv $O/plain.csv > $O/plain.log 2>&1; echo "bench rc=$?"
awk '$3=="memcpy"||$3=="cublas-geam"||($3=="cand"&&$4=="default") {printf "%-5s %-12s %-14s %8s %7s\n",$1,$2,$4,$(NF-3),$(NF-2)}' $O/plain.log
