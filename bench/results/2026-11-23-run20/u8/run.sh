#!/usr/bin/env bash
# Run 20, call 5: where u8 loses against u16 in the narrow kernel: -bt (4 x 4 byte-block
# permutes) and 256 x 256 u8 tiles against the default, twice; Nsight Compute of the u8 / u16
# defaults and the u8 candidates at n = 16392. Tests of the new candidates first.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
grep "ERROR SUMMARY" $O/logs/memcheck.log | tail -1 | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,20000x30000
V8=default,narrow-128-t256-b4-cm-bt,narrow-256-t1024-b1-cm,narrow-256-t512-b2-cm
for rep in 1 2; do
  timeout 150 $B/bench_kernels --compare --reps 20 --variant $V8 --types u8 --shapes $S > $O/logs/u8-$rep.log 2>&1; echo "u8 $rep rc=$?" | tee -a $O/logs/summary.txt
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct
for t in u8 u16; do
  V=default; [ $t = u8 ] && V=default,narrow-128-t256-b4-cm-bt,narrow-256-t512-b2-cm
  timeout 200 ncu --clock-control none -k regex:narrow_kernel --launch-count 40 --metrics $M --csv $B/bench_kernels --compare --reps 1 --variant $V --types $t --shapes 16392x16392 > $O/logs/ncu-$t.csv 2> $O/logs/ncu-$t.err; echo "ncu $t rc=$?" | tee -a $O/logs/summary.txt
done
python3 - $O/logs/ncu-u8.csv $O/logs/ncu-u16.csv <<'PY' > $O/logs/ncu-summary.txt 2>&1 || true
import csv,sys
for f in sys.argv[1:]:
    rows=[r for r in csv.reader(open(f)) if len(r)>14 and r[0]!="ID"]
    launch={}
    for r in rows: launch.setdefault(int(r[0]),(r[4],{}))[1][r[12]]=r[14]
    seen={}
    for i in sorted(launch):
        k,v=launch[i]
        n=seen.get(k,0); seen[k]=n+1
        if n == 1:
            print(k[:100])
            for m,x in v.items(): print(f"   {m[:64]:64s} {x}")
PY
tar czf $O/run20-u8.tgz -C $O logs
for f in u8-1 u8-2; do echo "== $f"; grep -E '^u8 ' $O/logs/$f.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-28s %7s %6s\n",$1,$2,$4,$6,$7}'; done
cat $O/logs/ncu-summary.txt
