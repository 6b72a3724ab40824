#!/usr/bin/env bash
# Run 28, call 13 (kernels/NOTES.md "Run 28, second part"): Nsight Compute on the u8 block kernel,
# short columns (L x 176 and L x 160) at the long sides where calls 10-11 saw it fast and slow.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
timeout 200 ncu --clock-control none -k regex:'thin' --metrics $M --csv $B/bench_kernel_counters \
  oop:1:3050400x176:thin oop:1:2287800x176:thin oop:1:3813000x176:thin \
  oop:1:3355440x160:thin oop:1:2516580x160:thin oop:1:4194304x160:thin > $L/ncu.csv 2> $L/ncu.err
echo "ncu rc=$?"; tail -2 $L/ncu.err
tar czf $O/logs.tgz -C /tmp logs
python3 - "$L/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault(r[0],{})[r[12]]=r[14]
print("x176: n = 3050400 (fast) / 2287800 / 3813000 (slow); x160: 3355440 (mid) / 2516580 (slow) / 4194304 (fast)")
for a in sorted({m for v in d.values() for m in v}):
    print(f"{a[:48]:48s}", " ".join(f"{d[k].get(a,'-'):>12s}" for k in d))
PY
