#!/usr/bin/env bash
# Run 25, call 4: the record on the dispatch with the u16 in-place edge rule of call 3 (GPU suite,
# sanitizers, bench record), memcheck / racecheck on the narrow tests, u16 in place new / old /
# guarded (kernels/NOTES.md, "Run 25").
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
S=""
for n in 16400 16404 16408 16411 16416 16420 16428 16440 16448 16504 16584 20000 24000 24600 24608 24620 24640 12316 12328; do S="$S${S:+,}${n}x${n}"; done
timeout 200 $B/bench_kernels --compare --reps 10 --variant default,narrow128-t512-b2-g8-seq,narrow128-t512-b2-g8-seq-wedge --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $O/logs/memcheck.log $O/logs/racecheck.log
grep -E ' cand-inplace ' $O/logs/u16.log | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}' |
  sed 's/narrow128-t512-b2-g8-seq-wedge/wedge/; s/narrow128-t512-b2-g8-seq=/old=/' |
  awk '{k=$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) {split(key[i],d,"x"); printf "u16 n=%s w=%d%s\n", d[1], d[1]%128, a[key[i]]}}'
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
