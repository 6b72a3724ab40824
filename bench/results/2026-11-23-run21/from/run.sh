#!/usr/bin/env bash
# Run 21, call 4: column-major against two groups (-sweep16k) for the skewed kernels from 20011
# to 31013 rows; the GPU suite with the new defaults (-tall16k for the skewed kernels).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
S=20011x20011,24001x24001,26003x26003,28001x28001,29009x29009,30011x30011,31013x31013,28001x16411,30011x12007
for run in 1 2; do
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-sweep16k-p256 --types f32 --shapes $S > $O/logs/f32-$run.log 2>&1; echo "f32 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,skew-32x64w16-b4-cm,skew-32x64w16-b4-sweep16k --types f64 --shapes $S > $O/logs/f64-$run.log 2>&1; echo "f64 rc=$?" | tee -a $O/logs/summary.txt
timeout 100 $B/bench_kernels --compare --reps 10 --variant default,skew-32x32-b4-cm,skew-32x32-b4-sweep16k --types c128 --shapes $S > $O/logs/c128-$run.log 2>&1; echo "c128 rc=$?" | tee -a $O/logs/summary.txt
done
timeout 240 $B/xpose_gpu_tests > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|Failure" $O/logs/tests.log | head -12 | tee -a $O/logs/summary.txt
tar czf $O/run21-from.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/f*.log $O/logs/c*.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in f32 f64 c128; do for run in 1 2; do grep -E "^$f " $O/logs/$f-$run.log | grep -E ' cand ' | awk -v r=$run '{printf "%s %s %s %s %s %s\n",$1,$2,r,$4,$7,$9}'; done; done | python3 -c '
import sys,collections
t=collections.OrderedDict()
for l in sys.stdin:
  ty,sh,r,name,x,ok=l.split()
  k=name.replace("skew-","").replace("64x64w16-b4","").replace("32x64w16-b4","").replace("32x32-b4","").replace("-p256","")
  t.setdefault((ty,sh),collections.OrderedDict()).setdefault(k,[]).append(x+("" if ok=="ok" else "!"))
for (ty,sh),v in t.items(): print(ty,sh," ".join(k+"="+"/".join(x) for k,x in v.items()))
'
