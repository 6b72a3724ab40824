# Run 37, call 9 (inline command on call 8's warm H200, GPU-f8b1649a): the new entries against
# their old kernels on a third H200, two rounds of 20.
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz; source .gpu-bundle/env.sh; B=$PWD/.gpu-bundle/bin; L=/tmp/l11; mkdir -p $L
for r in 1 2; do
  timeout 100 $B/bench_kernels --compare --reps 20 --types f32 --variant default,notma --shapes 16384x16384,32768x32768,8192x8192,12000x24000 > $L/f32-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-32x64w8-b3 --shapes 16384x16384,32768x32768,8192x8192,12000x24000 > $L/f64-r$r.log 2>&1
done
