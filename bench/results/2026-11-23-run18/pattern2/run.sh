#!/usr/bin/env bash
# Run 18, call 2: bench_inplace_pattern with the coalesced generic path and padded pitches, the in-place traffic
# without the transposition, at f32 16411^2, 16384^2, 16411:16416 and 16384:16411 (n:pitch), three times; compute-sanitizer
# memcheck and racecheck of it at small n first; Nsight Compute counters of the library's strip
# kernel and the copies at 16411^2; the out-of-place default at 16411^2 for the x-our-OOP figure.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
compute-sanitizer --tool memcheck $B/bench_inplace_pattern --n 1,31,100,333,1000,333:340,100:131 --reps 1 > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
tail -2 $O/logs/memcheck.log | tee -a $O/logs/summary.txt
compute-sanitizer --tool racecheck $B/bench_inplace_pattern --n 333,1000,333:340 --reps 1 > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -2 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
for i in 1 2 3; do
  $B/bench_inplace_pattern --n 16411,16384,16411:16416,16384:16411 --reps 20 > $O/logs/pattern$i.log 2>&1; echo "pattern$i rc=$?" | tee -a $O/logs/summary.txt
done
$B/bench_kernels --compare --variant default,strip4-32w4-t512-g8-b2-l128-p256s --types f32 --shapes 16411x16411,16384x16384 > $O/logs/oop.log 2>&1; echo "oop rc=$?" | tee -a $O/logs/summary.txt
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
timeout 300 ncu --clock-control none -k regex:'inplace_strip|pattern_' --launch-count 200 --metrics $M --csv $B/bench_inplace_pattern --n 16411,16384:16411 --reps 1 > $O/logs/ncu.csv 2> $O/logs/ncu.err; echo "ncu rc=$?" | tee -a $O/logs/summary.txt
python3 - "$O/logs/ncu.csv" <<'PY' > $O/logs/ncu-summary.txt 2>&1 || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
launch={}
for r in rows: launch.setdefault(int(r[0]),(r[4],{}))[1][r[12]]=r[14]
seen={}
for i in sorted(launch):
    k,v=launch[i]
    n=seen.get(k,0); seen[k]=n+1
    if n in (0,5):  # 5 launches a variant and side: the first of each side
        print(f"{k[:120]}  [side {1 if n==0 else 2}]")
        for m,x in v.items(): print(f"   {m[:60]:60s} {x}")
PY
cat $O/logs/ncu-summary.txt | head -150
cat $O/logs/pattern1.log; for i in 2 3; do echo "== pattern$i"; grep -E '^(cuda|library|strip 4x32, elements  )' $O/logs/pattern$i.log; done
grep -E '16411|16384' $O/logs/oop.log | head -20
tar czf $O/run18-pattern2.tgz -C $O logs
