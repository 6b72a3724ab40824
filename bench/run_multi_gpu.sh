#!/usr/bin/env bash
# Several GPUs of one node, one rank each, in one batch, for each GPU count given (default 2 4):
#   1. the GPU tests at N ranks (those that need two or more GPUs skip on one), and
#      compute-sanitizer memcheck on the multi-GPU in-memory tests;
#   2. the in-memory transpose against PyTorch (pack, all_to_all_single over NCCL, local
#      transpose) at 32768^2 and 65536^2 complex64, every transport, and NCCL's raw all-to-all at
#      the same message size (bench_exchange_raw);
#   3. the file pipeline: 32 GiB float32 on /dev/shm, NCCL exchange, against the file-copy
#      ceiling measured in the same run, with the CPU backend on the same node beside it;
#   4. the Python module's DistributedTranspose on CuPy arrays at N ranks against the C++ API;
#   5. the node-aware exchange with the ranks split into "nodes" of two (XPOSE_RANKS_PER_NODE=2),
#      checked by xpose verify.
# Run from the repository root on the GPU machine, programs in .gpu-bundle/ (xpose,
# xpose_gpu_tests, bench_inmem_transpose, bench_exchange_raw, bench_e2e_vs_copy, and the Python
# module built there, see docs/python.md). SIZE_SCALE=small runs every step on small inputs (a
# dry run that checks the script on one GPU).
#   bash bench/run_multi_gpu.sh [N ...]
set -uo pipefail
source .gpu-bundle/env.sh
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
B=$PWD/.gpu-bundle/bin
OUT=${OUT:-/tmp/xpose-out}; mkdir -p "$OUT"
W=/dev/shm/xpose-multi; rm -rf "$W"; mkdir -p "$W"
mount -o remount,size=110G /dev/shm 2>/dev/null || true
log() { printf '\n=== %s (%s)\n' "$*" "$(date +%T)"; }
counts=("$@"); [ ${#counts[@]} -gt 0 ] || counts=(2 4)
small=${SIZE_SCALE:-} NP=$(nproc)
if [ "$small" = small ]; then
  inmem_sizes="2048 4096"; file_shape=4096x8192; raw_bytes=64MiB; reps=3
else
  inmem_sizes="32768 65536"; file_shape=65536x131072; raw_bytes=1GiB; reps=10
fi
nvidia-smi -L; nproc; free -g | head -2
SUMMARY=$OUT/summary.txt; : > "$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }

for n in "${counts[@]}"; do
  launch=(mpirun -np "$n" --bind-to none)
  log "1. GPU tests at $n ranks"
  # The dry run takes the multi-GPU tests only (the whole suite takes minutes on one GPU).
  filter=; [ "$small" = small ] && filter='--gtest_filter=DistributedTransposeGpu*:PeerTransportGpu*'
  timeout 300 "${launch[@]}" "$B/xpose_gpu_tests" --gtest_color=no $filter >"$OUT/gpu-tests-$n.log" 2>&1
  say "gpu tests, $n ranks: rc=$? $(grep -cE '^\[       OK' "$OUT/gpu-tests-$n.log") ok, $(grep -cE '^\[  SKIPPED \] [A-Za-z]' "$OUT/gpu-tests-$n.log") skipped"
  if [ "$n" -ge 2 ]; then
    timeout 300 "${launch[@]}" compute-sanitizer --tool memcheck --error-exitcode 3 "$B/xpose_gpu_tests" \
      --gtest_color=no --gtest_filter='DistributedTransposeGpu*:PeerTransportGpu*' >"$OUT/memcheck-$n.log" 2>&1
    say "memcheck of the multi-GPU tests, $n ranks: rc=$? $(grep -m1 'ERROR SUMMARY' "$OUT/memcheck-$n.log")"
  fi

  log "2. in-memory transpose against PyTorch, $n ranks"
  for s in $inmem_sizes; do
    timeout 300 "${launch[@]}" "$B/bench_inmem_transpose" --rows "$s" --cols "$s" --reps "$reps" --no-host \
      --chunks 32,128 >"$OUT/inmem-$n-$s.log" 2>&1
    best=$(sed -n 's/^RESULT best_ms=\([0-9.]*\).*/\1/p' "$OUT/inmem-$n-$s.log")
    timeout 300 python3 bench/torch_inmem_transpose.py --ranks "$n" --rows "$s" --cols "$s" --reps "$reps" \
      >"$OUT/torch-$n-$s.log" 2>&1
    torch=$(grep -h '^RESULT' "$OUT/torch-$n-$s.log" | tr ' ' '\n' | sed -n 's/^torch_ms=//p')
    say "inmem ${s}^2 complex64, $n ranks: xpose ${best:-n/a} ms, PyTorch ${torch:-n/a} ms, ratio $(awk -v a="$best" -v b="$torch" 'BEGIN{if(a>0&&b>0)printf "%.3f", a/b; else print "n/a"}') (goal <= 0.8)"
  done
  timeout 120 "${launch[@]}" "$B/bench_exchange_raw" --bytes "$raw_bytes" --reps "$reps" >"$OUT/raw-$n.log" 2>&1
  say "raw all-to-all, $n ranks: $(grep -iE 'nccl' "$OUT/raw-$n.log" | tail -1)"

  log "3. file pipeline, $n ranks, NCCL, against the copy ceiling"
  mpirun -np "$NP" --bind-to none "$B/xpose" generate "$W/a.h5:/m" --shape "$file_shape" --dtype float32 --quiet --force
  timeout 400 "${launch[@]}" "$B/bench_e2e_vs_copy" --input "$W/a.h5:/m" --workdir "$W" --backend cuda --exchange nccl \
    --reps 1 --no-verify >"$OUT/e2e-cuda-$n.txt" 2>&1
  say "file, cuda + nccl, $n ranks: $(grep -E '^xpose transpose' "$OUT/e2e-cuda-$n.txt")"
  say "  ceiling: $(grep -E '^file copy ceiling' "$OUT/e2e-cuda-$n.txt")"
  timeout 400 mpirun -np "$NP" --bind-to none "$B/bench_e2e_vs_copy" --input "$W/a.h5:/m" --workdir "$W" --backend cpu \
    --reps 1 --no-verify >"$OUT/e2e-cpu-$NP.txt" 2>&1
  say "file, cpu, $NP ranks: $(grep -E '^xpose transpose' "$OUT/e2e-cpu-$NP.txt")"

  log "4. Python DistributedTranspose on CuPy, $n ranks"
  if [ "$n" = 1 ]; then
    timeout 300 python3 bench/python_inmem.py --library cupy --rows 16384 --cols 16384 --reps "$reps" \
      >"$OUT/python-$n.log" 2>&1
    say "python inmem, 1 rank: rc=$? $(grep -h '^RESULT' "$OUT/python-$n.log" | head -1)"
  else
    say "python inmem, $n ranks: not measured (bench/python_inmem.py measures one rank)"
  fi

  if [ "$n" -ge 4 ]; then
    log "5. node-aware exchange, $n ranks as nodes of 2"
    XPOSE_RANKS_PER_NODE=2 timeout 300 "${launch[@]}" -x XPOSE_RANKS_PER_NODE "$B/xpose" transpose "$W/a.h5:/m" \
      "$W/b.h5:/m" --exchange mpi-node --force --quiet >"$OUT/node-aware-$n.log" 2>&1
    rc=$?
    timeout 300 mpirun -np "$NP" --bind-to none "$B/xpose" verify "$W/a.h5:/m" "$W/b.h5:/m" --quiet >>"$OUT/node-aware-$n.log" 2>&1
    say "node-aware exchange, $n ranks as nodes of 2: transpose rc=$rc, verify rc=$?"
  fi
  rm -f "$W"/*.h5
done
rm -rf "$W"
log "summary"; cat "$SUMMARY"
