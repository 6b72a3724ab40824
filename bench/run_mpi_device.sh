#!/usr/bin/env bash
# The mpi-device exchange (MPI on device buffers) on two GPUs of one node, one rank each, with a
# CUDA-aware Open MPI. Debian's Open MPI is not CUDA-aware, so this needs one built with
# --with-cuda (e.g. Open MPI 4.1.4 configured with --prefix=/opt/ompi-cuda --with-cuda=/usr/local/cuda),
# xpose built against it (-DMPI_CXX_COMPILER=/opt/ompi-cuda/bin/mpicxx), and both packed into
# .gpu-bundle/ with an env-cuda.sh that puts that MPI first. Run from the repository root:
#   bench/run_mpi_device.sh            (logs in $OUT, else /tmp/xpose-out)
# 1. CLI end-to-end tests with --exchange mpi-device; 2. the in-memory API's GPU tests (every
# transport the MPI library allows, mpi-device included); 3. 16 GiB float32 with --gpu-mem 4GiB
# against a plain HDF5 copy, verified on every element; 4. the raw transports at the stage's
# message size (MPI_Alltoall of device buffers among them).
set -uo pipefail
source .gpu-bundle/env-cuda.sh
B=$PWD/.gpu-bundle/bin
OUT=${OUT:-/tmp/xpose-out}; mkdir -p "$OUT"
W=/dev/shm/xpose-bench; rm -rf "$W"; mkdir -p "$W"
log() { printf '\n=== %s (%s)\n' "$*" "$(date +%T)"; }
NP=$(nproc)
nvidia-smi -L
ompi_info --parsable --all 2>/dev/null | grep -E "mpi_built_with_cuda_support:value"
run2=(mpirun --bind-to none -np 2)

log "1. CLI end-to-end tests, 2 ranks, --backend cuda --exchange mpi-device"
python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 2 --mpiexec "mpirun --bind-to none" \
  --extra "--backend cuda --exchange mpi-device" --group shapes --group dtypes --group streaming --group resume 2>&1 | tail -6

log "2. in-memory API GPU tests, 2 ranks"
timeout 240 "${run2[@]}" "$B/xpose_gpu_tests" --gtest_filter='DistributedTransposeGpu*' 2>&1 |
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED|transport|refused" | head -30

log "3. 16 GiB float32 over 2 ranks with --gpu-mem 4GiB, exchange mpi-device, against a plain HDF5 copy"
mpirun --bind-to none -np "$NP" "$B/xpose" generate "$W/a.h5:/m" --shape 65536x65536 --dtype float32 --host-mem 1GiB -q
"${run2[@]}" "$B/bench_e2e_vs_copy" --input "$W/a.h5:/m" --workdir "$W" --backend cuda --gpu-mem 4GiB \
  --host-mem 8GiB --exchange mpi-device --reps 1 --no-verify --keep --trace "$OUT/trace-2gpu-mpi-device.json" 2>&1 |
  tee "$OUT/e2e-2gpu-mpi-device.txt"
mpirun --bind-to none -np "$NP" "$B/xpose" verify "$W/a.h5:/m" "$W/bench-transposed.h5:/data" --host-mem 1GiB 2>&1 |
  tee "$OUT/verify-2gpu-mpi-device.txt"

log "4. raw transports at the stage's message size (512 MiB buffers per rank)"
"${run2[@]}" "$B/bench_exchange_raw" --bytes 512MiB --reps 10 2>&1 | tee "$OUT/raw-exchange.txt"
rm -rf "$W"
log "done"
