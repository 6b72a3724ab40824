#!/usr/bin/env bash
# Run 22, call 6: the record with u16's 128x256 narrow skewed form (every layout whose output rows
# are off 16 bytes): device_run.sh, u16's default against the kernels it replaces and column-major,
# u16 on 16-byte output rows against this form, u8 forms with 512-byte pieces, the CLI tests
# with --backend cuda (kernels/NOTES.md, "Run 22").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 330 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1; echo "device_run rc=$?" | tee -a $O/logs/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests=" $O/logs/record.log | tail -8 | tee -a $O/logs/summary.txt
S16=16411x16411,16386x16386,5003x100001,16411x45001,24001x24001,45001x20011,60003x16411,100003x5003
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,rot-128x128-t512-b3-cm,nskew-128x128-t512-b2-n5-cm,nskew-128x256-t512-b2-n3-cm --types u16 --shapes $S16 > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
SO=16384x16411,16384x16392,60000x16411,100000x5003,16400x16400
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,nskew-128x256-t512-b2-n3-sweep --types u16 --shapes $SO > $O/logs/u16on16.log 2>&1; echo "u16on16 rc=$?" | tee -a $O/logs/summary.txt
S8=16411x16411,60003x16411,5003x100001,16392x16392
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,nskew-512x256-t1024-b1-n2-cm,nskew-256x512-t1024-b1-n1-cm,nskew-256x512-t512-b1-n3-cm --types u8 --shapes $S8 > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 150 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$?") | tee -a $O/logs/summary.txt
grep -E 'PASS|FAIL' $O/logs/cli.log | tail -4
tar czf $O/run22-final3.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u16.log $O/logs/u16on16.log $O/logs/u8.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u16 u16on16 u8; do t=${f%on16}; grep -E "^$t " $O/logs/$f.log | grep -E ' cand ' | awk -v f=$f '{printf "%s %s %s=%s%s\n",f,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/nskew-//; s/-cm//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
