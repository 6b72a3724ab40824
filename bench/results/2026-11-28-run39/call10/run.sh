#!/usr/bin/env bash
# Run 39, call 10 (kernels/NOTES.md "Run 39"): the engine on the final code on an H200, where the
# line-aligned kernels run: end-to-end transposes of odd-width f32 / f64 matrices through the GPU
# with small stage buffers (so the kernel gets pitched sub-blocks), each verified element by
# element; then the CLI tests with --backend cuda at one rank.
set -uo pipefail
[ -d .gpu-bundle/bin ] || tar xJf .gpu-bundle.txz
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs10; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
pack() { tar czf $O/logs.tgz -C /tmp logs10; }
D=/dev/shm/x; mkdir -p $D
for c in float32:12003x16411:512MiB float64:4001x9001:128MiB float32:3001x2001:16MiB; do
  IFS=: read -r t sh gm <<< "$c"
  $B/xpose generate $D/a.h5:/m --shape $sh --dtype $t -f -q
  timeout 60 $B/xpose transpose $D/a.h5:/m $D/b.h5:/m --backend cuda --gpu-mem $gm --force > $L/e2e-$t-$sh.log 2>&1
  rc=$?
  timeout 60 $B/xpose verify $D/a.h5:/m $D/b.h5:/m >> $L/e2e-$t-$sh.log 2>&1
  echo "e2e $t $sh gpu-mem $gm: transpose rc=$rc verify rc=$? (${SECONDS}s): $(tail -1 $L/e2e-$t-$sh.log)"
  rm -f $D/a.h5 $D/b.h5
done
pack
timeout 170 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 1 --mpiexec "mpirun --oversubscribe --bind-to none" \
  --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli.log 2>&1
echo "cli rc=$? (${SECONDS}s)"; tail -6 $L/cli.log; pack
echo "total ${SECONDS}s"
