#!/usr/bin/env bash
# Run 22, call 5: u16 narrow skewed forms with 512-byte pieces (256x128, 128x256) against the
# default and the rotated kernel where output rows are off 16 bytes (kernels/NOTES.md, "Run 22").
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $O/logs/gpu.txt
timeout 120 $B/xpose_gpu_tests --gtest_filter='*NarrowSkew*' > $O/logs/tests.log 2>&1; echo "tests rc=$?" | tee -a $O/logs/summary.txt
for tool in memcheck racecheck; do
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*NarrowSkew*' > $O/logs/$tool.log 2>&1; echo "$tool rc=$?" | tee -a $O/logs/summary.txt
  tail -1 $O/logs/$tool.log
done
S=16411x16411,16386x16386,5003x100001,16411x45001,24001x24001,60003x16411
V=default,rot-128x128-t512-b3-cm,nskew-128x128-t512-b2-n5-cm,nskew-256x128-t512-b2-n3-cm,nskew-256x128-t512-b2-n5-cm,nskew-128x256-t512-b2-n3-cm
timeout 120 $B/bench_kernels --compare --reps 10 --variant $V --types u16 --shapes $S > $O/logs/u16.log 2>&1; echo "u16 rc=$?" | tee -a $O/logs/summary.txt
tar czf $O/run22-u16long.tgz -C $O logs
grep -h -c "FAIL\|mismatch" $O/logs/u16.log | sed 's/^/fail-lines: /'
grep -E "^u16 " $O/logs/u16.log | grep -E ' cand ' | awk '{printf "%s %s %s=%s%s\n",$1,$2,$4,$7,($9=="ok"?"":"!")}' | sed 's/nskew-//; s/-cm//; s/-t512-b2//' | awk '{k=$1" "$2; a[k]=a[k]" "$3; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] a[key[i]]}'
