#!/usr/bin/env bash
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
timeout 120 $B/bench_copy_ceiling --mib 1024,4096,16384 > $O/copy1.log 2>&1; echo "copy rc=$?"
timeout 90 $B/bench_copy_ceiling --mib 1024,4096 > $O/copy2.log 2>&1; echo "copy rc=$?"
M=launch__grid_size,launch__block_size,launch__registers_per_thread,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum
timeout 200 ncu --clock-control none --metrics $M --csv $B/bench_copy_ceiling --mib 1024 --reps 1 > $O/ncu.csv 2> $O/ncu.err; echo "ncu rc=$?"
python3 - "$O/ncu.csv" <<'PY' || true
import csv,sys,collections
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10 and r[0]!="ID"]
d=collections.OrderedDict()
for r in rows: d.setdefault((r[0],r[4][:70]),{})[r[12]]=r[14]
seen=set()
for (i,k),m in d.items():
    key=k
    if key in seen: continue
    seen.add(key)
    print(i,k,{a.split('__')[1][:22]:v for a,v in m.items()})
PY
cat $O/copy2.log
