#!/usr/bin/env bash
# Run 24, call 3: the record on the final dispatch (u8 on 16-byte rows both sides: element edges
# only with whole tiles; in place u8 / u16: guarded edge pairs where the edge is wide), the
# in-place change against the old default, memcheck / racecheck on the narrow tests, and the CLI
# end-to-end tests with --backend cuda at 1 and 2 ranks (kernels/NOTES.md, "Run 24").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
timeout 200 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1; echo "device_run rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests=" $O/logs/record.log | tail -8 | tee -a $O/logs/summary.txt
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='CudaKernels.NarrowDefaults:CudaKernels.NarrowEdge*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
done
P8=16384x16384,16400x16400,16411x16411,16432x16432,16480x16480,16584x16584,20000x20000,24000x24000
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,narrow256-t1024-g16-seq --types u8 --shapes $P8 > $O/logs/ip-u8.log 2>&1; echo "ip u8 rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
P16=16384x16384,16400x16400,16411x16411,16448x16448,16504x16504,16584x16584,20000x20000,24000x24000
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,narrow128-t512-b2-g8-seq --types u16 --shapes $P16 > $O/logs/ip-u16.log 2>&1; echo "ip u16 rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 200 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$? (${SECONDS}s)") | tee -a $O/logs/summary.txt
grep -E 'PASS|FAIL' $O/logs/cli.log | tail -4
tar czf $O/run24-call3.tgz -C $O logs
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $O/logs/memcheck.log $O/logs/racecheck.log
grep -h -c "FAIL\|mismatch" $O/logs/ip-u8.log $O/logs/ip-u16.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in ip-u8 ip-u16; do grep -E ' cand-inplace ' $O/logs/$f.log | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/narrow[0-9]*-t[0-9]*-\(b2-\)*g[0-9]*-seq/old/' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print "inplace " key[i] a[key[i]]}'
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
