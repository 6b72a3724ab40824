#!/usr/bin/env bash
# Run 24, call 2: the record on the new u8 dispatch (device_run.sh: GPU suite, sanitizers,
# bench_kernels --csv), the u8 change against the old default, and where in place the guarded
# edge pairs (-wedge) pay (kernels/NOTES.md, "Run 24").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SECONDS=0
timeout 330 tests/gpu/device_run.sh $B $O/logs/record > $O/logs/record.log 2>&1; echo "device_run rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests=" $O/logs/record.log | tail -8 | tee -a $O/logs/summary.txt
S=16384x16384,65536x16384,32768x32768,16400x16400,16400x5008,200000x1008,30000x3008,16384x12000
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-cm-eledge,nskew-256x256-t512-b2-n3-cm --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
P8=16432x16432,16448x16448,16480x16480,16512x16512,16544x16544,16608x16608,24000x24000
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,narrow256-t1024-g16-seq-wedge --types u8 --shapes $P8 > $O/logs/ip-u8.log 2>&1; echo "ip u8 rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
P16=16424x16424,16432x16432,16448x16448,16480x16480,16504x16504
timeout 90 $B/bench_kernels --compare --reps 10 --variant default,narrow128-t512-b2-g8-seq-wedge --types u16 --shapes $P16 > $O/logs/ip-u16.log 2>&1; echo "ip u16 rc=$? (${SECONDS}s)" | tee -a $O/logs/summary.txt
tar czf $O/run24-call2.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u8.log $O/logs/ip-u8.log $O/logs/ip-u16.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
grep -E "^u8 " $O/logs/u8.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}' | sed 's/nskew-[^=]*/nskew/;s/narrow-256-t512-b2-cm-eledge/old/' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
for f in ip-u8 ip-u16; do grep -E ' cand-inplace ' $O/logs/$f.log | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/narrow[0-9]*-t[0-9]*-\(b2-\)*g[0-9]*-seq-//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print "inplace " key[i] a[key[i]]}'
sed -n '/^# summary/,$p' $O/logs/record/bench.log | head -40
