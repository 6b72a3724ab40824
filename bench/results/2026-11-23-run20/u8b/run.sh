#!/usr/bin/env bash
# Run 20, call 6: the u8 default with 256 x 256 tiles on 16-byte rows: GPU suite, memcheck,
# the default against the kernels it chooses from; Nsight Compute of the 256-byte-piece kernels
# on and off 16-byte rows.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) " $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*SanitizerShapes*:*SanitizerVariants*' > $O/logs/memcheck.log 2>&1; echo "memcheck rc=$?" | tee -a $O/logs/summary.txt
grep "ERROR SUMMARY" $O/logs/memcheck.log | tail -1 | tee -a $O/logs/summary.txt
S=16384x16384,16400x16400,16416x16416,16392x16392,16386x16386,16411x16411,20000x30000
timeout 150 $B/bench_kernels --compare --reps 20 --variant default,narrow-128-t256-b4-cm,tile-128x128w16,narrow-256-t512-b2-cm --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_op_write.sum,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct
for c in "u8 16400x16400 narrow-256-t512-b2-cm" "u8 16392x16392 narrow-256-t512-b2-cm" "u8 16392x16392 narrow-128-t256-b4-cm" "u16 16392x16392 narrow-128-t512-b2-cm" "u16 16386x16386 narrow-128-t512-b2-cm"; do
  set -- $c
  timeout 120 ncu --clock-control none -k regex:narrow_kernel --launch-skip 2 --launch-count 1 --metrics $M --csv $B/bench_kernels --compare --reps 4 --variant $3 --types $1 --shapes $2 > $O/logs/ncu-$1-$2-$3.csv 2> $O/logs/ncu-$1-$2-$3.err; echo "ncu $c rc=$?" | tee -a $O/logs/summary.txt
done
python3 - $O/logs/ncu-*.csv <<'PY' > $O/logs/ncu-summary.txt 2>&1 || true
import csv,sys
for f in sys.argv[1:]:
    rows=[r for r in csv.reader(open(f)) if len(r)>14 and r[0]!="ID"]
    print("==", f.split("/")[-1])
    for r in rows: print(f"   {r[12][:64]:64s} {r[14]}")
PY
tar czf $O/run20-u8b.tgz -C $O logs
echo "== u8"; grep -E '^u8 ' $O/logs/u8.log | grep -E 'cand ' | awk '{printf "%-4s %-12s %-28s %7s %6s\n",$1,$2,$4,$6,$7}'
cat $O/logs/ncu-summary.txt
