#!/usr/bin/env bash
# Run 22, call 9: u8 on 16-byte output rows, the narrow kernel only where fewer than 4 % of its
# tiles are partial (MostlyWhole), checked on new shapes; then the record (device_run.sh)
# (kernels/NOTES.md, "Run 22").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
S=30000x3001,50000x2001,100000x2001,65536x1001,16384x9001,16384x12003,8192x20001
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-sweep,nskew-256x256-t512-b2-n3-sweep --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 330 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1; echo "device_run rc=$?" | tee -a $O/logs/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests=" $O/logs/record.log | tail -8 | tee -a $O/logs/summary.txt
tar czf $O/run22-partial.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u8.log | sed 's/^/fail-lines: /'
grep -E "^u8 " $O/logs/u8.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
