# Run 38, call 5 (inline command on call 4's warm H200, GPU-1c53b00f; typed after call 4's
# table, its plan written down after it): c128 under 20 tiles an SM on rows off 32 bytes, where
# the skewed kernel still runs; three rounds of 100.
source .gpu-bundle/env.sh; B=$PWD/.gpu-bundle/bin; L=/tmp/logs5; mkdir -p $L ${OUT}
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
for r in 1 2 3; do
  timeout 100 $B/bench_kernels --compare --reps 100 --types c128 --variant default,tile-32x32-any,tile-32x32-any-cm,tile-16x16-any --shapes 1001x1001,801x801,1201x1201,601x601,1401x1401,1001x1601,1601x1001,1501x1501 > $L/c128-r$r.log 2>&1
  timeout 100 $B/bench_kernels --compare --reps 100 --batch 4 --types c128 --variant default,tile-32x32-any,tile-32x32-any-cm,tile-16x16-any --shapes 501x501 > $L/c128b4-r$r.log 2>&1
done
tar czf $OUT/logs.tgz -C /tmp logs5
cat $L/*-r?.log | awk '($3=="cand"||$3=="cublas-geam")&&$9=="ok"{print $1,$2,$4,$6}' | sort -k2,2V -k3,3 -s | awk '{k=$2" "$3; v[k]=v[k]" "$4; if(!(k in o)){o[k]=++n; key[n]=k}} END{for(i=1;i<=n;i++) print key[i] v[key[i]]}'
