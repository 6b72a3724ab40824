#!/usr/bin/env bash
# Two GPUs of one node, one rank each, in one batch: the in-memory API (bench/run_inmem_gpu.sh),
# then the file pipeline: CLI end-to-end tests with each exchange backend, a matrix larger than
# one GPU's --gpu-mem budget against a plain HDF5 copy (exchange auto, mpi, nccl), and the raw
# transports at the same message sizes. Run from the repository root, programs in .gpu-bundle/.
#   SECTIONS="A B C D E" (default: all) picks sections; E is a shorter form of C: one transpose
#   per exchange backend, for the exchange phase's bandwidth.
set -uo pipefail
source .gpu-bundle/env.sh
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
B=$PWD/.gpu-bundle/bin
OUT=${OUT:-/tmp/xpose-out}; mkdir -p "$OUT"
W=/dev/shm/xpose-bench; rm -rf "$W"; mkdir -p "$W"
log() { printf '\n=== %s (%s)\n' "$*" "$(date +%T)"; }
NP=$(nproc)
nvidia-smi -L; nproc; free -g | head -2; df -h /dev/shm | tail -1

SECTIONS=${SECTIONS:-A B C D E}
want() { [[ " $SECTIONS " == *" $1 "* ]]; }

if want A; then
log "A. in-memory distributed transpose and FFT (bench/run_inmem_gpu.sh)"
bash bench/run_inmem_gpu.sh "$B" "$OUT/inmem" 2>&1 | tail -32
fi

if want B; then
log "B. CLI end-to-end tests, 2 ranks, --backend cuda, each exchange"
for ex in mpi nccl; do
  python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 2 --mpiexec "mpirun --bind-to none" \
    --extra "--backend cuda --exchange $ex" --group shapes --group dtypes --group streaming --group resume 2>&1 | tail -5
done
mpirun --bind-to none -np 2 "$B/xpose" generate "$W/t.h5:/m" --shape 300x500 -q
mpirun --bind-to none -np 2 "$B/xpose" transpose "$W/t.h5:/m" "$W/u.h5:/m" --backend cuda --exchange mpi-device
echo "mpi-device: exit $? (this Open MPI is not CUDA-aware: a usage error, 2, is expected)"
fi

if want C || want E; then
mpirun --bind-to none -np "$NP" "$B/xpose" generate "$W/a.h5:/m" --shape 65536x65536 --dtype float32 --host-mem 1GiB -q
fi
if want C; then
log "C. 16 GiB float32 over 2 ranks with --gpu-mem 4GiB, against a plain HDF5 copy"
for ex in auto mpi nccl; do
  echo "--- exchange $ex"
  mpirun --bind-to none -np 2 "$B/bench_e2e_vs_copy" --input "$W/a.h5:/m" --workdir "$W" --backend cuda \
    --gpu-mem 4GiB --host-mem 8GiB --exchange $ex --reps 1 --no-verify --trace "$OUT/trace-2gpu-$ex.json" 2>&1 |
    tee "$OUT/e2e-2gpu-$ex.txt"
done
echo "--- full verify of a run with exchange auto"
mpirun --bind-to none -np 2 "$B/xpose" transpose "$W/a.h5:/m" "$W/b.h5:/m" --backend cuda --gpu-mem 4GiB \
  --host-mem 8GiB --json "$OUT/2gpu-auto.json" 2>&1 | grep -v '^transpose:'
mpirun --bind-to none -np "$NP" "$B/xpose" verify "$W/a.h5:/m" "$W/b.h5:/m" --host-mem 1GiB
rm -f "$W/b.h5"
fi
if want E; then
log "E. 16 GiB float32 over 2 ranks, --gpu-mem 4GiB: one transpose per exchange backend"
for ex in nccl mpi; do
  mpirun --bind-to none -np 2 "$B/xpose" transpose "$W/a.h5:/m" "$W/b.h5:/m" --backend cuda --gpu-mem 4GiB \
    --host-mem 8GiB --exchange $ex --force --json "$OUT/2gpu-$ex.json" --trace "$OUT/trace-2gpu-$ex.json" 2>&1 | grep -v '^transpose:'
done
mpirun --bind-to none -np "$NP" "$B/xpose" verify "$W/a.h5:/m" "$W/b.h5:/m" --host-mem 1GiB --sample 10000000
fi

if want D; then
log "D. raw transports at the stage's message size (512 MiB buffers per rank)"
mpirun --bind-to none -np 2 "$B/bench_exchange_raw" --bytes 512MiB --reps 10 2>&1 | tee "$OUT/raw-exchange.txt"
fi
rm -rf "$W"
log "done"
