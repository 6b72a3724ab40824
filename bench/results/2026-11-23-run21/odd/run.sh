#!/usr/bin/env bash
# Run 21, call 6: u8 / u16 where both matrices' rows are off 4 bytes, by height: column-major
# defaults against row-major, groups of 8 tile rows and sweeps (kernels/NOTES.md, "Run 21").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
S=16411x16411,20011x20011,24001x24001,28001x28001,32749x32749,45001x20011,60003x16411
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,rot-128x128-t512-b3-cm,rot-128x128-t512-b3,rot-128x128-t512-b3-g8,rot-128x128-t512-b3-sweep,narrow-128-t512-b2-cm,narrow-128-t512-b2 --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
timeout 120 $B/bench_kernels --compare --reps 10 --variant default,narrow-256-t512-b2-cm-rot,narrow-256-t512-b2-rot,narrow-256-t512-b2-g8-rot,narrow-256-t512-b2-sweep-rot,narrow-128-t256-b4-cm --types u8 --shapes $S > $O/logs/u8.log 2>&1; echo "u8 rc=$?" | tee -a $O/logs/summary.txt
timeout 200 $B/xpose_gpu_tests --gtest_filter='*EveryVariantOutOfPlace*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
grep -E "^\[  (PASSED|FAILED) |Failure" $O/logs/tests.log | head -5
tar czf $O/run21-odd.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u16.log $O/logs/u8.log | paste -sd' ' | sed 's/^/fail-lines per log: /'
for f in u16 u8; do grep -E "^$f " $O/logs/$f.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}'; done | sed 's/rot-128x128-t512-b3/rot/; s/narrow-/n/; s/-t512-b2//; s/-t256-b4//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
