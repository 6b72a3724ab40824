#!/usr/bin/env bash
# Run 30, call 2 (kernels/NOTES.md "Run 30"): the skewed kernels' column order against groups on
# tall inputs with rows on 128 bytes, wide ones (f32 12320 lost in call 1), and one-stack pitches
# off 128 bytes; two rounds. TYPES=f32 reruns one type (the first try stopped at a shape past
# the bench's 32768² elements: 100001x12320, now 80001x12320).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SH=([f32]=60001x8320,60001x10240,60001x12288,60001x12320,60001x16384,50001x14336,40001x12320,80001x12320,40001x16512,40001x20480,30001x24576
               [f64]=40001x10240,30001x12320,40001x8192
               [c128]=30001x6160,30001x8320,30001x10240)
declare -A ST=([f32]=81920x3001,81920x12320,81920x8192 [f64]=81920x2049,40960x6001,40960x12320 [c128]=40960x5003,61440x2049,40960x8192)
declare -A SK=([f32]=skew-64x64w16-b4-cm-p256,skew-64x64w16-b4-sweep-p256 [f64]=skew-32x64w16-b4-cm,skew-32x64w16-b4-sweep [c128]=skew-32x32-b4-cm,skew-32x32-b4-sweep)
declare -A SG=([f32]=skew-64x64w16-b4-g16k-p256 [f64]=skew-32x64w16-b4-g16k [c128]=skew-32x32-b4-g16k)
for r in 1 2; do
  for t in ${TYPES:-f32 f64 c128}; do
    timeout 200 $B/bench_kernels --compare --reps 10 --variant default,${SK[$t]} --types $t --shapes ${SH[$t]} > $L/order-$t-r$r.log 2>&1
    echo "$t r$r rc=$? (${SECONDS}s)"
    timeout 150 $B/bench_kernels --compare --reps 10 --variant default,${SK[$t]},${SG[$t]} --types $t --shapes ${ST[$t]} > $L/stack-$t-r$r.log 2>&1
    echo "$t stack r$r rc=$? (${SECONDS}s)"
  done
done
tar czf $O/logs.tgz -C /tmp logs
for t in ${TYPES:-f32 f64 c128}; do
  echo "== $t order (default / cm / sweep), rounds 1 and 2"
  paste <(awk '$3=="cand"{print $2, $7}' $L/order-$t-r1.log | paste -d' ' - - -) <(awk '$3=="cand"{print $7, $9}' $L/order-$t-r2.log | paste -d' ' - - -)
  echo "== $t one-stack (default / cm / sweep / g16k), rounds 1 and 2"
  paste <(awk '$3=="cand"{print $2, $7}' $L/stack-$t-r1.log | paste -d' ' - - - -) <(awk '$3=="cand"{print $7, $9}' $L/stack-$t-r2.log | paste -d' ' - - - -)
done
echo "total ${SECONDS}s"
