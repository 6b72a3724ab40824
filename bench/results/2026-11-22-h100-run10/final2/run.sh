#!/usr/bin/env bash
# Run 10 final 2: as final/, after the f64 in-place change (strip kernel, G=64). GPU tests, compute-sanitizer and
# the full bench_kernels table (--huge), the CLI end-to-end tests with --backend cuda at 1 and 2
# ranks, then two compare runs of the f64 in-place strip kernel at G=8 and G=64 and the f64 skewed fallback in both orders.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
tests/gpu/device_run.sh .gpu-bundle/bin "$O" --huge 2>&1 | tail -32
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out bench/run_pipeline_gpu.sh > $O/cli.log 2>&1; echo "cli rc=$?")
grep -E 'passed|failed|FAIL' $O/cli.log | tail -6
V=default,strip4-32w8-t512-g8-b2-l128,strip4-32w8-t512-g64-b2-l128,skew-32x64w16-b4,skew-32x64w16-b4-cm
for i in 1 2; do
timeout 200 .gpu-bundle/bin/bench_kernels --compare --variant $V > $O/compare$i.log 2>&1; echo "bench rc=$?"
done
paste <(awk '($3 ~ /cand/ || $3 == "cublas-geam") && $2 ~ /16411/ && $1 == "f64" {printf "%-5s %-12s %-22s %6s\n",$1,$2,$4,$7}' $O/compare1.log) <(awk '($3 ~ /cand/ || $3 == "cublas-geam") && $2 ~ /16411/ && $1 == "f64" {printf "%6s %4s\n",$7,$8}' $O/compare2.log)
