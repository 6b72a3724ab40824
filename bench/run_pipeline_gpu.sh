#!/usr/bin/env bash
# The GPU pipeline on one GPU (issue: GPU pipeline and exchange backends), in one batch:
#  1. kernel tests; 2. CLI end-to-end tests with --backend cuda on 1 rank and on 2 ranks sharing
#  the GPU; 3. a 32 GiB float32 matrix on /dev/shm through one rank with --gpu-mem 8GiB against a
#  plain HDF5 copy, with a trace; 4. what users do today (h5py + PyTorch) against xpose;
#  5. the kill-and-resume demo (bench/resume_demo.sh) on 2 and 8 GiB.
# Run from the repository root on the GPU machine, with the programs packed in .gpu-bundle/.
# SECTIONS="3 5" runs only those sections (default: all).
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin
OUT=${OUT:-/tmp/xpose-out}; mkdir -p "$OUT"
W=/dev/shm/xpose-bench; rm -rf "$W"; mkdir -p "$W"
log() { printf '\n=== %s (%s)\n' "$*" "$(date +%T)"; }
# tmpfs holds the input and the output (64 GiB): make room if /dev/shm is smaller.
mount -o remount,size=110G /dev/shm 2>/dev/null || true
nvidia-smi -L; nproc; free -g | head -2; df -h /dev/shm | tail -1
NP=$(nproc)

CLI_NPS=${CLI_NPS:-1 2}
SECTIONS=${SECTIONS:-1 2 3 4 5}
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
if want 1; then
log "1. kernel tests"
"$B/xpose_gpu_tests" --gtest_filter='-*DistributedTranspose*:*PeerTransport*' 2>&1 | tail -3

fi
if want 2; then
log "2. CLI end-to-end tests, --backend cuda"
for np in $CLI_NPS; do
  python3 tests/cli/test_cli.py --xpose "$B/xpose" --np $np --mpiexec "mpirun --oversubscribe --bind-to none" \
    --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume 2>&1 | tail -6
done

fi
if want 3; then
log "3. 32 GiB float32, 1 rank, --gpu-mem 8GiB, against a plain HDF5 copy"
mpirun --bind-to none -np "$NP" "$B/xpose" generate "$W/a.h5:/m" --shape 65536x131072 --dtype float32 --host-mem 1GiB
# With --host-mem 8GiB (smaller than the 32 GiB slab: the stages read with pread, the resident
# set stays bounded) and with the default budget (the mapped input stays resident).
for mem in 8GiB default; do
  hm=(--host-mem "$mem"); [ "$mem" = default ] && hm=()
  echo "--- --gpu-mem 8GiB, host memory budget: $mem"
  "$B/bench_e2e_vs_copy" --input "$W/a.h5:/m" --workdir "$W" --backend cuda --gpu-mem 8GiB "${hm[@]}" \
    --reps 1 --trace "$OUT/trace-32gib-$mem.json" --no-verify --keep 2>&1 | tee "$OUT/e2e-32gib-$mem.txt"
  mpirun --bind-to none -np "$NP" "$B/xpose" verify "$W/a.h5:/m" "$W/bench-transposed.h5:/data" --host-mem 1GiB 2>&1 | tee "$OUT/verify-32gib-$mem.txt"
done
rm -f "$W"/*.h5 "$W"/.*.h5.*

fi
if want 4; then
log "4. h5py + PyTorch against xpose, 8 GiB float32"
mpirun --bind-to none -np "$NP" "$B/xpose" generate "$W/s.h5:/m" --shape 32768x65536 --dtype float32 -q
python3 bench/torch_h5_baseline.py "$W/s.h5:/m" "$W/torch.h5:/m" 2>&1 | tee "$OUT/torch.txt"
rm -f "$W/torch.h5"
for cfg in "1 cuda mmap" "$NP cuda mmap" "$NP cpu mmap" "$NP cuda pwrite" "8 cuda mmap"; do
  set -- $cfg
  echo "--- xpose -np $1 --backend $2 (direct writes: $3)"
  XPOSE_DIRECT_WRITE=$3 mpirun --bind-to none -x XPOSE_DIRECT_WRITE -np "$1" "$B/xpose" transpose "$W/s.h5:/m" \
    "$W/x.h5:/m" --backend "$2" --force --json "$OUT/s-$1-$2-$3.json" 2>&1 | grep -v '^transpose:'
done
mpirun --bind-to none -np "$NP" "$B/xpose" verify "$W/s.h5:/m" "$W/x.h5:/m" --host-mem 1GiB
fi
if want 5; then
log "5. kill and resume, 2 ranks"
for cfg in "16384x32768 256MiB" "32768x65536 1GiB"; do
  set -- $cfg
  mpirun --bind-to none -np "$NP" "$B/xpose" generate "$W/r.h5:/m" --shape "$1" --dtype float32 -q --force
  echo "--- $1 float32, --host-mem $2"
  bench/resume_demo.sh "$B/xpose" "$W/r.h5:/m" "$W" "$2" 2>&1 | tee -a "$OUT/resume-demo.txt"
  rm -f "$W"/*.h5 "$W"/.*.h5.*
done
fi
rm -rf "$W"
log "done"
