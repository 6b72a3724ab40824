#!/usr/bin/env bash
# Run 21, call 11: the GPU suite, the sanitizers and the f32 default around its new 200000-row
# rule (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 240 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|Failure" $O/logs/tests.log | head -8 | tee -a $O/logs/summary.txt
timeout 200 tests/gpu/sanitize.sh $B/xpose_gpu_tests > $O/logs/sanitize.log 2>&1; echo "sanitize rc=$?" | tee -a $O/logs/summary.txt
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY" $O/logs/sanitize.log | tee -a $O/logs/summary.txt
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,tile-64x64w8,skew-64x64w16-b4-g16k-p256 --types f32 --shapes 200008x5000,130008x8192,100000x5024 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run21-check.tgz -C $O logs
grep -c "FAIL\|mismatch" $O/logs/f32.log | sed 's/^/fail-lines: /'
grep -E "^f32 " $O/logs/f32.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
