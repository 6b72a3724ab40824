# Run 37, call 2 (inline command on the warm H200 of call 1, GPU-33a8a393): f32 TMA-load
# candidates at run 34's losing shape (32768x16384), the goal squares and small 256-byte-row
# squares; every f64 candidate at three squares. Two rounds of 20.
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz; source .gpu-bundle/env.sh; B=$PWD/.gpu-bundle/bin; mkdir -p /tmp/l2
for r in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --types f32 --variant default,tmald-64x64,tmald-128x64,tma-64x64-t256 --shapes 32768x16384,32768x32768,16384x32768,8192x8192,4096x4096,2048x2048,24576x24576 > /tmp/l2/f32-r$r.log 2>&1
  timeout 250 $B/bench_kernels --compare --reps 20 --types f64 --shapes 12288x12288,16384x16384,28672x28672 > /tmp/l2/f64all-r$r.log 2>&1
done
