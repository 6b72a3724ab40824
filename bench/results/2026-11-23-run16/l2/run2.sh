#!/usr/bin/env bash
# Run 16, call 5: the same L2 breakdown for copies that move the same bytes (bench_copy_ceiling
# at 1 GiB = f32 16384^2): the plain 16-byte copy (1.00 x memcpy), the 64 x 256-byte tiles copied
# in place and to their transposed places (the tiled transpose's traffic without transposing).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/info2.txt
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
timeout 200 ncu --clock-control none -k regex:copy_unrolled -c 1 --metrics $M --csv $B/bench_copy_ceiling --mib 1024 --reps 1 > $O/ncu-copy.csv 2> $O/ncu-copy.err; echo "ncu rc=$?"
timeout 200 ncu --clock-control none -k regex:copy_tiles --launch-skip 3 -c 2 --metrics $M --csv $B/bench_copy_ceiling --mib 1024 --reps 1 > $O/ncu-tiles.csv 2> $O/ncu-tiles.err; echo "ncu rc=$?"
for f in $O/ncu-copy.csv $O/ncu-tiles.csv; do
python3 - "$f" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault((r[0],r[4][:60]),{})[r[12]]=r[14]
for (i,k),m in d.items():
    print(i,k)
    for a in sorted(m):
        if 'atomic' in a or 'decomp' in a or 'sysmem' in a: continue
        print(f"   {a[:70]:70s} {m[a]}")
PY
done
