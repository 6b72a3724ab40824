#!/usr/bin/env bash
# Run 19, call 13: the record with both new f32 defaults: GPU tests, compute-sanitizer and the
# full bench_kernels table (--huge) through device_run.sh, then the defaults against the old
# ones on the odd and tall shapes of calls 6-12.
set -uo pipefail
source .gpu-bundle/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O/logs
nvidia-smi --query-gpu=name,uuid,memory.total,ecc.mode.current --format=csv,noheader | tee $O/logs/info.txt
tests/gpu/device_run.sh .gpu-bundle/bin "$O/logs" --huge 2>&1 | tail -34
V=default,strip4-32w4-t512-g8-b2-l128-p256s,skew-64x64w16-b4-cm-p256
timeout 250 .gpu-bundle/bin/bench_kernels --compare --reps 20 --variant $V --types f32 --shapes 4097x4097,8193x8193,16387x16387,24577x24577,30000x30000,32749x32749,20000x30000,45000x20011,100000x5003 > $O/logs/shapes.log 2>&1; echo "shapes rc=$?"
grep -E '^f32 ' $O/logs/shapes.log | grep -E 'cand' | awk '{printf "%-12s %-13s %-36s %7s %6s\n",$2,$3,$4,$6,$7}'
grep -A12 '^# compare' $O/logs/shapes.log | grep -E '^f32'
tar czf $O/run19-record.tgz -C $O logs
