# Run 38, call 2 (inline command on call 1's warm H200, GPU-2c1579a0; typed after call 1's
# table, its plan written down after it): f64 / c128's best new candidates on held-out shapes
# whose rows are off 256 bytes (the skewed entries), two rounds of 20.
source .gpu-bundle/env.sh; B=$PWD/.gpu-bundle/bin; L=/tmp/logs2; mkdir -p $L ${OUT}
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
for r in 1 2; do
  timeout 200 $B/bench_kernels --compare --reps 20 --types f64 --variant default,tile-64x64w8-any-cm,tile-32x32w8-any-cm --shapes 10007x30011,24001x9001,20001x20001,6001x6001,16386x16386,16001x16400 > $L/f64-r$r.log 2>&1
  timeout 200 $B/bench_kernels --compare --reps 20 --types c128 --variant default,tile-32x32-any-cm,tile-16x16-any-cm --shapes 10007x30011,24001x9001,20001x20001,6001x6001,16392x16392,16001x16400,4001x4001 > $L/c128-r$r.log 2>&1
  echo round $r
done
tar czf $OUT/logs.tgz -C /tmp logs2
cat $L/*-r?.log | awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1,$2,$4,$6,$7}' | sort -k1,1 -k2,2 -k3,3
