#!/usr/bin/env bash
# Run 11, call 4: skewed f32 shapes with 256-byte fetches around the default (16411^2 is 0.2 %
# under 0.93), and the new dispatch (tiled only on 128-byte lines) against the tiled kernel on
# shapes with rows off lines, for f32, f64 and c128.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED)|Failure|tests? from .* ran' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
V=default,skew-64x64w16-b4-cm,skew-64x64w16-t512-b2-cm-p256,skew-64x64w8-b4-cm-p256,skew-64x64w16-b4-g64-p256,skew-128x64w16-b3-cm-p256,skew-96x64w16-b4-cm-p256,skew-128x32w16-b4-cm-p256
for i in 1 2; do
timeout 100 $B/bench_kernels --compare --types f32 --shapes 16411x16411,20000x30000,16411x16400 --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
E=default,tile-64x64w8,tile-32x64w8-b3,tile-16x16
timeout 150 $B/bench_kernels --compare --variant $E --shapes 16400x16384,16384x16400,16392x16384,16384x16392,16388x16384,16384x16388,20000x30000 --csv $O/lines.csv > $O/lines.log 2>&1; echo "lines rc=$?"
paste <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-34s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-34s %6s %4s\n",$1,$2,substr($3,1,4),$4,$7,$8}' $O/lines.log
