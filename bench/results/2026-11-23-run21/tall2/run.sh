#!/usr/bin/env bash
# Run 21, call 2: -tall16k (column-major up to 32000 input rows, groups of at most 16000 rows
# above) for the skewed kernels; the narrow kernels where output rows are on 16 bytes and input
# rows off them (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SK=16411x16411,30011x30011,32749x32749,33001x30011,40001x12007,45001x16411,60001x14009,100001x5003
SO=16384x16411,20000x16411,24000x12007,30000x20011,40000x12007,48000x20011,60000x16411,100000x5003,16388x16411,60004x16411
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-sweep-p256,skew-64x64w16-b4-tall16k-p256 --types f32 --shapes $SK > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,skew-32x64w16-b4-cm,skew-32x64w16-b4-sweep,skew-32x64w16-b4-tall16k --types f64 --shapes $SK > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,skew-32x32-b4-cm,skew-32x32-b4-sweep,skew-32x32-b4-tall16k --types c128 --shapes $SK > $O/logs/c128.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,narrow-128-t512-b2-cm,narrow-128-t512-b2-sweep,narrow-128-t512-b2-tall16k,rot-128x128-t512-b3-cm,rot-128x128-t512-b3-sweep --types u16 --shapes $SO > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-cm,narrow-256-t512-b2-sweep,narrow-256-t512-b2-tall16k,narrow-128-t256-b4-cm,narrow-128-t256-b4-sweep,narrow-128-t256-b4-tall16k,narrow-256-t512-b2-cm-rot --types u8 --shapes $SO,16384x16392,32768x16386 > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run21-tall2.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in f32 f64 c128 u16 u8; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand' | awk '{printf "%s %s %s %s %s %s\n",$1,$2,$3,$4,$7,$9}'; done | python3 -c '
import sys,collections
t=collections.OrderedDict()
for l in sys.stdin:
  ty,sh,k,name,x,ok=l.split()
  t.setdefault((ty,sh),[]).append(("ip:" if "inplace" in k else "")+name.replace("narrow-","n").replace("-t512","").replace("-t256","").replace("skew-","s").replace("rot-128x128","rot").replace("64x64w16-","").replace("32x64w16-","").replace("32x32-","").replace("-p256","")+"="+x+("" if ok=="ok" else "!"))
for (ty,sh),v in t.items(): print(ty,sh," ".join(v))
'
