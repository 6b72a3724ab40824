#!/usr/bin/env bash
# Run 21, call 14: Nsight Compute counters of the f32 skewed kernel, column-major by height and
# in groups at 31013^2 (kernels/NOTES.md, "Run 21"; a measurement of committed code).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
V=skew-64x64w16-b4-cm-p256
timeout 400 ncu --clock-control none -k regex:'skew' --metrics $M --csv $B/bench_kernel_counters oop:4:16411x16411:$V oop:4:20011x20011:$V oop:4:24001x24001:$V oop:4:28001x28001:$V oop:4:31013x31013:$V oop:4:31013x31013 > $O/logs/ncu.csv 2> $O/logs/ncu.err; echo "ncu rc=$?"
tail -3 $O/logs/ncu.err
tar czf $O/run21-counters.tgz -C $O logs
python3 - "$O/logs/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault(r[0],{})[r[12]]=r[14]
names=sorted({m for v in d.values() for m in v})
print("launch order: 16411 20011 24001 28001 31013 (column-major), 31013 (groups)")
for a in names:
    print(f"{a[:62]:62s}", " ".join(f"{d[k].get(a,'-'):>14s}" for k in d))
PY
