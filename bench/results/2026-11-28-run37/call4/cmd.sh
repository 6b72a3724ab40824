# Run 37, call 4 (inline command, the same warm H200): every c128 candidate at four shapes; f32's
# new 32 x 32 tiles on 256-byte rows. Two rounds of 20.
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz; source .gpu-bundle/env.sh; B=$PWD/.gpu-bundle/bin; L=/tmp/l6; mkdir -p $L
for r in 1 2; do
  timeout 250 $B/bench_kernels --compare --reps 20 --types c128 --shapes 8192x8192,16384x16384,12288x12288,20000x30000 > $L/c128-r$r.log 2>&1
  timeout 200 $B/bench_kernels --compare --reps 20 --types f32 --variant default,tmald-128x64,tile-32x32w16-any,tile-32x32w8-any --shapes 3072x3072,6144x6144,12288x24576,40960x8192,16384x16384 > $L/f32-r$r.log 2>&1
done
