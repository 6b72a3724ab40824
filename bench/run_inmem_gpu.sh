#!/usr/bin/env bash
# The in-memory distributed transpose on a machine with 2 GPUs, in one call: the GPU tests of
# DistributedTranspose at 2 ranks (the peer transport's among them), the distributed 2-D FFT
# client (single and double precision), bench_inmem_transpose (every transport and schedule:
# peer, nccl, mpi-device, staged mpi, beside a raw host MPI_Alltoall), and
# PyTorch doing the same job; a short table at the end. About 3 minutes.
#
#   source .gpu-bundle/env.sh && bench/run_inmem_gpu.sh [.gpu-bundle/bin] [OUT_DIR]
#
# BIN_DIR must hold xpose_gpu_tests, bench_fft2d and bench_inmem_transpose (build with
# -DCMAKE_CUDA_ARCHITECTURES=90 and copy them from build/bin). OUT_DIR (default $OUT, else
# ./inmem-out) receives every log and inmem.csv. PYTHON picks the interpreter for the PyTorch
# script (default python3); without torch that step is reported as skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-.gpu-bundle/bin}
out=${2:-${OUT:-inmem-out}}
python=${PYTHON:-python3}
mkdir -p "$out"
if ! command -v mpirun >/dev/null; then
  # shellcheck source=/dev/null
  [ -f .gpu-bundle/env.sh ] && source .gpu-bundle/env.sh
fi
launch=(mpirun -np 2 --bind-to none)

nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv |
  tee "$out/gpu.txt"
nvidia-smi topo -m >"$out/topo.txt" 2>&1

step() { echo; echo "== $1 ($(date +%T))"; }

step "GPU tests, 2 ranks"
timeout 180 "${launch[@]}" "$bin/xpose_gpu_tests" \
  --gtest_filter='DistributedTransposeGpu*:PeerTransportGpu*' \
  >"$out/gpu_tests.log" 2>&1
tests_rc=$?
grep -E "^transports|refused as expected|peer transport not available|choice:|peer/bulk: |^\[  (PASSED|FAILED|SKIPPED) |Failure|FAILED|Expected|Which is" \
  "$out/gpu_tests.log" | sed 's/\x1b\[[0-9;]*m//g' | head -40

fft_rc=()
for precision in single double; do
  step "bench_fft2d $precision, 2 ranks"
  timeout 120 "${launch[@]}" "$bin/bench_fft2d" --precision "$precision" --rows 4096 --cols 6144 \
    >"$out/fft2d_$precision.log" 2>&1
  fft_rc+=($?)
  grep -E "^fft2d|choice:" "$out/fft2d_$precision.log"
  grep -iE "error|abort" "$out/fft2d_$precision.log" | grep -v "relative L2 error" | head -5
done

step "bench_inmem_transpose 32768 x 32768 complex64, 2 ranks"
rm -f "$out/xpose.wisdom"
timeout 300 "${launch[@]}" "$bin/bench_inmem_transpose" --reps 10 --chunks 32,128 \
  --wisdom "$out/xpose.wisdom" --csv "$out/inmem.csv" >"$out/inmem.log" 2>"$out/inmem.err"
inmem_rc=$?
cat "$out/inmem.log"
cat "$out/xpose.wisdom" 2>/dev/null
grep -iE "error|abort" "$out/inmem.err" | head -5

step "PyTorch: pack, all_to_all_single (NCCL), local transpose; 2 GPUs"
timeout 180 "$python" "$here/torch_inmem_transpose.py" --ranks 2 --rows 32768 --cols 32768 --reps 10 \
  >"$out/torch.log" 2>&1
torch_rc=$?
grep -vE "^\s*$" "$out/torch.log" | tail -3

# ---- summary ---------------------------------------------------------------------------------
value() {  # value FILE KEY: what follows KEY= on the RESULT line
  grep -h '^RESULT' "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1
}
best=$(value "$out/inmem.log" best_ms)
raw=$(value "$out/inmem.log" raw_mpi_ms)
staged=$(value "$out/inmem.log" staged_ms)
peer=$(value "$out/inmem.log" peer_ms)
nccl=$(value "$out/inmem.log" nccl_ms)
torch=$(value "$out/torch.log" torch_ms)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "n/a" }'; }
verdict() { awk -v r="$1" -v g="$2" 'BEGIN { if (r == "n/a") print "?"; else if (r <= g) print "met"; else print "MISSED" }'; }

echo
echo "== summary ($(sed -n 2p "$out/gpu.txt" | cut -d, -f2 | xargs) x $(($(wc -l <"$out/gpu.txt") - 1)))"
printf "%-44s %s\n" "GPU tests, 2 ranks" "$(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu_tests.log" | sed 's/\x1b\[[0-9;]*m//g' | tr -s ' ' | paste -sd ' ') (rc $tests_rc)"
for i in 0 1; do
  p=$([ $i = 0 ] && echo single || echo double)
  printf "%-44s %s\n" "fft2d $p 4096 x 6144, 2 ranks" \
    "$(sed -n 's/^fft2d relative L2 error \(.*\)/\1/p' "$out/fft2d_$p.log") (rc ${fft_rc[$i]})"
done
printf "%-44s %s ms (rc %s)\n" "xpose best, 32768^2 complex64" "${best:-n/a}" "$inmem_rc"
printf "%-44s %s\n" "  config" "$(sed -n 's/^# best xpose: //p' "$out/inmem.log")"
printf "%-44s %s ms (%s)\n" "xpose best peer (CUDA IPC)" "${peer:-n/a}" \
  "$(sed -n 's/^# best peer: \(.*\), [0-9.]* ms$/\1/p' "$out/inmem.log")"
printf "%-44s %s ms (%s)\n" "xpose best nccl" "${nccl:-n/a}" \
  "$(sed -n 's/^# best nccl: \(.*\), [0-9.]* ms$/\1/p' "$out/inmem.log")"
printf "%-44s %s ms\n" "raw host MPI_Alltoall, same bytes" "${raw:-n/a}"
r=$(ratio "$staged" "$raw")
printf "%-44s %s ms = %s x raw (goal <= 1.15: %s)\n" "xpose best host-staged mpi" "${staged:-n/a}" "$r" "$(verdict "$r" 1.15)"
printf "%-44s %s ms (rc %s)\n" "PyTorch all_to_all_single" "${torch:-n/a}" "$torch_rc"
r=$(ratio "$best" "$torch")
printf "%-44s %s (goal <= 0.85: %s)\n" "xpose best / PyTorch" "$r" "$(verdict "$r" 0.85)"
echo "logs: $out"
status=0
for rc in "$tests_rc" "${fft_rc[@]}" "$inmem_rc"; do [ "$rc" = 0 ] || status=1; done
exit $status
