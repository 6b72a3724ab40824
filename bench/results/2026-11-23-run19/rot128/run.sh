#!/usr/bin/env bash
# Run 19, call 3: rot128 around its call-2 form (G = 1, 2, 4; no fetch; diagonal pairs
# element by element) and rot64 with diagonal pairs element by element (as the bench's swap),
# beside the defaults; bench_kernels --compare (20 runs) at f32 16411^2, 16387^2, 16384^2,
# twice; the tests of every in-place candidate; bench_inplace_pattern at 16411^2 for the swaps;
# the SASS order of global / shared accesses and barriers of rot64 and of the bench's swap 64.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
timeout 300 $B/xpose_gpu_tests --gtest_filter='*EveryVariantInPlace*:*SanitizerVariants*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/tests.log | tee -a $O/logs/summary.txt
timeout 240 compute-sanitizer --tool racecheck $B/xpose_gpu_tests --gtest_filter='*SanitizerVariants*' > $O/logs/racecheck.log 2>&1; echo "racecheck rc=$?" | tee -a $O/logs/summary.txt
tail -1 $O/logs/racecheck.log | tee -a $O/logs/summary.txt
V=default,strip4-32w4-t512-g8-b2-l128-p256s,rot64-t512-g4-b2-p256,rot64-t512-g4-b2-p256-dg,rot128-t1024-g2-p256,rot128-t1024-g1-p256,rot128-t1024-g4-p256,rot128-t1024-g2,rot128-t1024-g2-p256-dg
for i in 1 2; do
  $B/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 16411x16411,16387x16387,16384x16384 > $O/logs/f32-$i.log 2>&1; echo "f32-$i rc=$?" | tee -a $O/logs/summary.txt
done
$B/bench_inplace_pattern --n 16411,16387 --reps 20 > $O/logs/pattern.log 2>&1; echo "pattern rc=$?" | tee -a $O/logs/summary.txt
{ for c in .gpu-bundle/ip.cubin .gpu-bundle/pat.cubin; do
    cuobjdump -sass $c | python3 -c '
import re,sys
fn=None; ops=[]
def flush():
    if fn and ops:
        out=[];prev=None;cnt=0
        for o in ops:
            if o==prev: cnt+=1
            else:
                if prev: out.append(f"{prev}x{cnt}" if cnt>1 else prev)
                prev=o;cnt=1
        if prev: out.append(f"{prev}x{cnt}" if cnt>1 else prev)
        print(fn); print("  "+" ".join(out))
for line in sys.stdin:
    m=re.search(r"Function : (\S+)",line)
    if m:
        flush(); f=m.group(1); fn=f if ("rotated_kernelIjLi64" in f or "rotated_swapILi64" in f or "rotated_kernelIjLi128" in f) else None; ops=[]; continue
    if fn:
        m=re.search(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9]*)(\.[A-Z0-9_.]+)?",line)
        if m and m.group(1) in ("LDG","STG","LDS","STS","BAR","BRA","EXIT"): ops.append(m.group(1))
flush()'
  done; } > $O/logs/sass-order.txt 2>&1; echo "sass rc=$?" | tee -a $O/logs/summary.txt
for f in f32-1 f32-2; do echo "== $f"; grep -E 'cand|compare|^f32 ' $O/logs/$f.log | head -40; done
grep -E '^(cuda|library|square 64, rot|square 128, rot|swap 64|swap 128)' $O/logs/pattern.log
head -c 3000 $O/logs/sass-order.txt
tar czf $O/run19-rot128.tgz -C $O logs
