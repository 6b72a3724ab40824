#!/usr/bin/env bash
# Run 15, review check: bench_copy_ceiling after b442f4e (options checked, CUDA failures reported
# in one line): every copy verified, and a bad --reps refused with exit status 2.
set -uo pipefail
source .gpu-bundle/env.sh
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
.gpu-bundle/bin/bench_copy_ceiling --mib 1024 --reps 5 > $OUT/review.log 2>&1; echo rc=$?
.gpu-bundle/bin/bench_copy_ceiling --reps 0; echo rc=$?
