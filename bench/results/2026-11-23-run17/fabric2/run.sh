#!/usr/bin/env bash
# Run 17, call 4 (a measurement, committed code): as call 3 (fabric/run.sh), for the odd-n defaults and their forms without 256-byte fetches; L2 sectors and requests by source unit (the SMs
# through the crossbar, `tex`, and the other L2 partition, `ltcfabric`) for the f32 defaults and a
# plain copy; the metric names are taken from this Nsight Compute's own list.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/info.txt
ncu --query-metrics --chip gh100 > /tmp/metrics.txt 2>&1
grep -oE '^lts__t_(sectors|requests)_srcunit_(ltcfabric|tex)[a-z_]*' /tmp/metrics.txt | sort -u > $O/names.txt
grep -oE '^lts__t_(sectors|requests)_srcunit_(ltcfabric|tex)[a-z_]*' /tmp/metrics.txt | grep -vE 'lookup|hit|miss|_mem_|atom|red' | sort -u > /tmp/use.txt
cat /tmp/use.txt
M=gpu__time_duration.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,$(sed 's/$/.sum/' /tmp/use.txt | paste -sd,)
timeout 400 ncu --clock-control none -k regex:'copy|tiled|skew|inplace' --metrics $M --csv $B/bench_kernel_counters oop:4:16411x16411 oop:4:16411x16411:skew-64x64w16-b4-cm ip:4:16411 ip:4:16411:strip4-32w4-t512-g8-b2-l128 > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
tail -3 $O/ncu.err
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault((r[0],r[4][:40]),{})[r[12]]=r[14]
names=sorted({m for v in d.values() for m in v})
print("kernels:"); [print(" ",i,k) for (i,k) in d]
for a in names:
    print(f"{a[:62]:62s}", " ".join(f"{d[key].get(a,'-'):>14s}" for key in d))
PY
