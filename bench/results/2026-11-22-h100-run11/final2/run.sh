#!/usr/bin/env bash
# Run 11 final 2: as final/, after the strip loads took 256-byte fetches too. The library (256-byte-fetch loads; tiled kernels only where
# output rows start on 256-byte boundaries, the skewed kernel in column order elsewhere). GPU
# tests, compute-sanitizer and the full bench_kernels table (--huge), then the defaults against
# the tiled kernels on shapes whose rows are off 256 bytes on one side. (The CLI tests are in
# ../final-cli/: the bundle with xpose in it passes the 64 MiB carry limit.)
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
tests/gpu/device_run.sh .gpu-bundle/bin "$O" --huge 2>&1 | tail -32
E=default,tile-64x64w8,tile-32x64w8-b3,skew-32x64w16-b4-cm,tile-16x16,skew-32x32-b4-cm
timeout 150 .gpu-bundle/bin/bench_kernels --compare --variant $E --shapes 16400x16384,16384x16400,16392x16384,16384x16392,20000x30000 > $O/lines.log 2>&1; echo "lines rc=$?"
awk '($3 ~ /^cand/ || $3 == "cublas-geam") {printf "%-5s %-12s %-4s %-26s %6s %4s\n",$1,$2,substr($3,1,4),$4,$7,$8}' $O/lines.log
