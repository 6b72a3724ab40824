#!/usr/bin/env bash
# Run 21, call 3: (a) group sizes for the skewed kernels (-sweep, -tall16k, -tall20k, -tall24k,
# -sweep16k); (b) the new u8 / u16 defaults where output rows are on 16 bytes: GPU suite,
# memcheck and racecheck of the narrow and sanitizer tests, defaults against the rotated kernel.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
SK=24001x24001,30011x30011,32749x32749,40001x12007,45001x16411,52001x16411,60001x14009,80001x9001,100001x5003
G="-cm,-sweep,-tall16k,-tall20k,-tall24k,-sweep16k"
v() { local base=$1 suf=$2; echo -n default; for g in ${G//,/ }; do echo -n ",$base$g$suf"; done; }
timeout 100 $B/bench_kernels --compare --reps 10 --variant $(v skew-64x64w16-b4 -p256) --types f32 --shapes $SK > $O/logs/f32.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant $(v skew-32x64w16-b4 "") --types f64 --shapes $SK > $O/logs/f64.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant $(v skew-32x32-b4 "") --types c128 --shapes $SK > $O/logs/c128.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
SO=16384x16411,24000x12007,30000x20011,40000x12007,48000x20011,60000x16411,100000x5003,16384x16392,32768x16386,16388x16411
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,rot-128x128-t512-b3-cm,narrow-128-t512-b2-sweep --types u16 --shapes $SO > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-cm-rot,narrow-256-t512-b2-sweep,narrow-128-t256-b4-cm --types u8 --shapes $SO > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 240 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|Failure" $O/logs/tests.log | head -12 | tee -a $O/logs/summary.txt
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*NarrowDefaults*:*SanitizerShapes*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/logs/$tool.log | tail -1 | tee -a $O/logs/summary.txt
done
tar czf $O/run21-groups.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f32.log $O/logs/f64.log $O/logs/c128.log $O/logs/u16.log $O/logs/u8.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in f32 f64 c128 u16 u8; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand ' | awk '{printf "%s %s %s %s %s %s\n",$1,$2,$3,$4,$7,$9}'; done | python3 -c '
import sys,collections
t=collections.OrderedDict()
for l in sys.stdin:
  ty,sh,k,name,x,ok=l.split()
  t.setdefault((ty,sh),[]).append(name.replace("narrow-","n").replace("-t512","").replace("-t256","").replace("skew-","").replace("rot-128x128","rot").replace("64x64w16-b4","").replace("32x64w16-b4","").replace("32x32-b4","").replace("-p256","")+"="+x+("" if ok=="ok" else "!"))
for (ty,sh),v in t.items(): print(ty,sh," ".join(v))
'
