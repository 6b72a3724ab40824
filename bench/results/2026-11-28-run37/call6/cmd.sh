# Run 37, call 6 (inline command on call 5's warm H200, GPU-bfb5ba6a): every f32 / f64 / c128
# candidate and cuBLAS at two shapes whose rows are off 16 bytes, two rounds of 20 (a survey).
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz; source .gpu-bundle/env.sh; B=$PWD/.gpu-bundle/bin; L=/tmp/l8; mkdir -p $L
for r in 1 2; do
  timeout 280 $B/bench_kernels --compare --reps 20 --types f32,f64,c128 --shapes 16411x16411,12001x20003 > $L/odd-r$r.log 2>&1
done
