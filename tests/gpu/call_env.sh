# Sourced by a device call script (bench/results/*/callN/run.sh) run from the repository root on
# the GPU machine, after `tar xJf .gpu-bundle.txz` or with the bundle unpacked:
#   source tests/gpu/call_env.sh N
# Unpacks .gpu-bundle.txz if needed, sources the bundle's env.sh and sets B (the bundle's bin),
# O ($OUT, or /tmp/out) and L (/tmp/logsN, the call's logs); records the GPU's name and UUID in
# $L/gpu.txt, restarts SECONDS, and defines pack (the logs into $O/logs.tgz, which comes back) and
# bk (`bench_kernels --compare --reps 20 ARGS...` under a 250 s timeout, the survey and held-out
# runs of every call). The preamble every call script of runs 37-44 wrote out.
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin
O=${OUT:-/tmp/out}
L=/tmp/logs${1:?usage: source tests/gpu/call_env.sh CALL_NUMBER}
mkdir -p "$O" "$L"
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$L/gpu.txt"
SECONDS=0
pack() { tar czf "$O/logs.tgz" -C /tmp "$(basename "$L")"; }
bk() { timeout 250 "$B/bench_kernels" --compare --reps 20 "$@"; }
