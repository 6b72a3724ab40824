#!/usr/bin/env bash
# Run 21, call 5: the record after the run's changes (skewed kernels in groups of at most 16000
# rows past 28000 rows; u8 / u16 narrow kernel where output rows are on 16 bytes): the GPU suite,
# the sanitizers and the full bench_kernels table (device_run.sh); the new defaults against the
# kernels they replace on tall and output-on-16 shapes; the CLI tests with --backend cuda.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
timeout 330 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1; echo "device_run rc=$?" | tee -a $O/logs/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests=" $O/logs/record.log | tail -8 | tee -a $O/logs/summary.txt
ST=16411x16411,28001x28001,31013x31013,32749x32749,60001x14009,100001x5003
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-sweep-p256 --types f32 --shapes $ST > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,skew-32x64w16-b4-cm --types f64 --shapes $ST > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,skew-32x32-b4-cm --types c128 --shapes $ST > $O/logs/c128.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
SN=16384x16411,16384x16392,60000x16411,100000x5003,32768x32768,32749x32749
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,rot-128x128-t512-b3-cm --types u16 --shapes $SN > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-cm-rot,narrow-128-t256-b4-cm --types u8 --shapes $SN > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 150 bench/run_pipeline_gpu.sh > $O/logs/cli.log 2>&1; echo "cli rc=$?") | tee -a $O/logs/summary.txt
grep -E 'PASS|FAIL' $O/logs/cli.log | tail -4
tar czf $O/run21-final.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f32.log $O/logs/f64.log $O/logs/c128.log $O/logs/u16.log $O/logs/u8.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in f32 f64 c128 u16 u8; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
