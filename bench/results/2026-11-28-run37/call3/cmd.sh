# Run 37, call 3 (inline command, the same warm H200): the held-out check of the two rules
# (NOTES.md "Run 37", call 3) on fresh 256-byte-row shapes, two rounds of 20.
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz; source .gpu-bundle/env.sh; B=$PWD/.gpu-bundle/bin; L=/tmp/l5; mkdir -p $L
S=3072x3072,6144x6144,10240x10240,20480x20480,12288x24576,24576x12288,40960x8192,8192x40960
for r in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --types f32 --variant default,tmald-128x64,tmald-64x64 --shapes $S > $L/f32-r$r.log 2>&1
  timeout 200 $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-32x32w16-any,tile-64x64w16-b2 --shapes $S > $L/f64-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 20 --batch 4 --types f32,f64 --variant default,tmald-128x64,tmald-64x64,tile-32x32w16-any,tile-64x64w16-b2 --shapes 4096x4096,2048x2048 > $L/b4-r$r.log 2>&1
done
