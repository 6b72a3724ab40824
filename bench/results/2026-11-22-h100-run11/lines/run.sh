#!/usr/bin/env bash
# Run 11, call 3: the library with the new defaults (f32: tiled only on 128-byte lines, else the
# skewed kernel with 256-byte fetches; in place odd n with 256-byte fetches): all GPU tests, the
# goal shapes twice, and whether f64 / c128 rows off lines also favour the skewed kernel.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
{ nvidia-smi --query-gpu=name,uuid,memory.total --format=csv,noheader
  timeout 300 $B/xpose_gpu_tests > /tmp/tests.log 2>&1; echo "tests rc=$?"
  grep -E '^\[  (PASSED|FAILED|SKIPPED)|Failure|tests? from .* ran' /tmp/tests.log | head -12; } 2>&1 | tee $O/info.txt
for i in 1 2; do
timeout 100 $B/bench_kernels --compare --variant default --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"
grep -E 'FAIL|ERROR' $O/compare$i.log | head
done
E=default,tile-32x64w8-b3,skew-32x64w16-b4-cm,skew-32x64w16-b4,tile-16x16,skew-32x32-b4-cm,skew-32x32-b4
timeout 150 $B/bench_kernels --compare --variant $E --types f64,c128 --shapes 16392x16384,16388x16384,16386x16384,16384x16392,16384x16388,16384x16386 --csv $O/lines.csv > $O/lines.log 2>&1; echo "lines rc=$?"
paste <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-34s %6s\n",$1,$2,substr($3,1,4),$4,$7}' $O/compare1.log) <(awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-34s %6s %4s\n",$1,$2,substr($3,1,4),$4,$7,$8}' $O/lines.log
