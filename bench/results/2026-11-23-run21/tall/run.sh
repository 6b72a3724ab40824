#!/usr/bin/env bash
# Run 21, call 1: column-major against capped column sweeps (-sweep: 32000 input rows,
# -sweep16k: 16000) on tall inputs, every element size (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $O/logs/gpu.txt
S1=30000x30000,32768x32768,32749x32749,32760x32760,45000x20011,60000x16384,60000x16411,65536x16384,100000x5003,40000x12007
S2=30000x30000,32749x32749,32749x12007,32749x14009,32749x16411,40000x12007,45000x12007,45000x14009,45000x16411,60000x8191,60000x12007,60000x14009,60000x16411,100000x5003
V8=default,narrow-256-t512-b2-cm,narrow-256-t512-b2-sweep,narrow-256-t512-b2-sweep16k,narrow-256-t512-b2-cm-rot,narrow-256-t512-b2-sweep-rot,narrow-256-t512-b2-sweep16k-rot,narrow-128-t256-b4-cm,narrow-128-t256-b4-sweep
V16=default,narrow-128-t512-b2-cm,narrow-128-t512-b2-sweep,narrow-128-t512-b2-sweep16k,rot-128x128-t512-b3-cm,rot-128x128-t512-b3-sweep,rot-128x128-t512-b3-sweep16k
V32=default,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-sweep-p256
V64=default,skew-32x64w16-b4-cm,skew-32x64w16-b4-sweep,skew-32x64w16-b4-sweep16k
V128=default,skew-32x32-b4-cm,skew-32x32-b4-sweep,skew-32x32-b4-sweep16k
timeout 120 $B/bench_kernels --compare --reps 10 --variant $V8 --types u8 --shapes $S1 > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 120 $B/bench_kernels --compare --reps 10 --variant $V16 --types u16 --shapes $S1 > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant $V64 --types f64 --shapes $S2 > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant $V128 --types c128 --shapes $S2 > $O/logs/c128.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
timeout 60 $B/bench_kernels --compare --reps 10 --variant $V32 --types f32 --shapes 32749x32749,60000x16411,100000x5003,40000x12007 > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run21-tall.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u8 u16 f64 c128 f32; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand' | awk '{printf "%s %s %s %s %s %s\n",$1,$2,$3,$4,$7,$9}'; done | python3 -c '
import sys,collections
t=collections.OrderedDict()
for l in sys.stdin:
  ty,sh,k,name,x,ok=l.split()
  t.setdefault((ty,sh),[]).append(("ip:" if "inplace" in k else "")+name.replace("narrow-","n").replace("-t512","").replace("-t256","").replace("skew-","s").replace("rot-128x128","rot")+"="+x+("" if ok=="ok" else "!"))
for (ty,sh),v in t.items(): print(ty,sh," ".join(v))
'
