#!/usr/bin/env bash
# (run as one command line on the device, on the machine of geam-launch/, GPU-68694c62...)
source .gpu-bundle/env.sh; O=$OUT; nvidia-smi --query-gpu=uuid --format=csv,noheader; B=.gpu-bundle/bin
V=default,tile-16x16,tile-16x16-t128,tile-32x16,tile-32x32-t1024,skew-32x64-b2,skew-32x32-b3,skew-32x32-b4,skew-16x64-b4,skew-32x32-a128-b3,tile-64x64w8,tmald-64x64,tile-64x64w8-g2,tile-32x64w8-b4,tile-64x64w16-b2,tmald-16x16,tmald-16x32
for i in 1 2; do timeout 200 $B/bench_kernels --compare --variant $V --csv $O/compare$i.csv > $O/compare$i.log 2>&1; echo "bench rc=$?"; done
