#!/usr/bin/env bash
# Run 22, call 4: the record with u8 b2-n3 (narrow_skew.cuh where output rows are off 16 bytes;
# u16 from 20000 rows): the GPU suite, the sanitizers and the full bench_kernels table
# (device_run.sh); the defaults against the kernels they replace and against nskew where output
# rows are on 16 bytes; the CLI tests with --backend cuda (kernels/NOTES.md, "Run 22").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 330 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1; echo "device_run rc=$?" | tee -a $O/logs/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests=" $O/logs/record.log | tail -8 | tee -a $O/logs/summary.txt
S8=16411x16411,60003x16411,5003x100001,16392x16392
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,nskew-256x256-t512-b2-n1-cm,narrow-256-t512-b2-cm-rot,narrow-128-t256-b4-cm --types u8 --shapes $S8 > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
SO=16384x16411,16384x16392,60000x16411,100000x5003,16400x16400
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,nskew-256x256-t512-b2-n3-sweep --types u8 --shapes $SO > $O/logs/u8on16.log 2>&1; echo "u8on16 rc=$?" | tee -a $O/logs/summary.txt
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,nskew-128x128-t512-b2-n5-sweep --types u16 --shapes $SO > $O/logs/u16on16.log 2>&1; echo "u16on16 rc=$?" | tee -a $O/logs/summary.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 150 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$?") | tee -a $O/logs/summary.txt
grep -E 'PASS|FAIL' $O/logs/cli.log | tail -4
tar czf $O/run22-final2.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u8.log $O/logs/u8on16.log $O/logs/u16on16.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u8 u8on16 u16on16; do t=${f%on16}; grep -E "^$t " $O/logs/$f.log | grep -E ' cand ' | awk -v f=$f '{printf "%s %s %s=%s%s\n",f,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/nskew-//; s/-cm//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
