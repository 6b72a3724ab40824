#!/usr/bin/env bash
# Written in run 41 (run 40's survey with f32's x2 lines form added; run 43 added the 128 x 128
# f32 form and 12001x20003; run 44 its in-place forms and u16's word kernels), not yet run on an
# H100: the first survey for the next session that gets one (kernels/NOTES.md, "What run 41
# leaves"). Run 45 ran it as it stands on an H200 (bench/results/2026-12-03-run45/call1/h100-dry/):
# every candidate named here exists, ran and was verified, in 22 s for both rounds. The
# H200-only forms of runs 38-41 at the H100 goal shapes and the odd-pitch goal shape, against
# the default (the H100's dispatch) and cuBLAS geam, two rounds of 20. Usage on the device: tar
# xJf .gpu-bundle.txz && bash THIS (bench_kernels in the bundle).
set -uo pipefail
source tests/gpu/call_env.sh -h100  # B, O, L=/tmp/logs-h100, gpu.txt, pack, bk (runs 43-44)
S=16384x16384,32768x32768,20000x30000,16411x16411,12001x20003
for r in 1 2; do
  bk --types f64 --shapes $S \
    --variant default,lines-64x64-x4-b6-cm,tile-64x64w8-any-cm > $L/f64-r$r.log 2>&1
  bk --types c128 --shapes $S \
    --variant default,tile-32x32-any-cm,lines-32x32-x2-b8-cm > $L/c128-r$r.log 2>&1
  bk --types f32 --shapes $S \
    --variant default,lines-64x128-x4-b6-cm,lines-64x128-x2-b6-cm,lines-128x128-t512-x2-b3-cm \
    > $L/f32-r$r.log 2>&1
  # run 44's H200 rules, in place (square shapes only) and u16 on 256-byte rows
  bk --types f32 --shapes 16411x16411,20001x20001 \
    --variant default,rot128-t1024-g32-p256-fe,rot128-t512-g32-b1-p256-fe > $L/f32ip-r$r.log 2>&1
  bk --types f64 --shapes 16384x16384,32768x32768 \
    --variant default,tile-32w16-row,tile-64w16-row-b3 > $L/f64ip-r$r.log 2>&1
  bk --types c128 --shapes 16411x16411,12001x12001 \
    --variant default,multi2-32-g32-p256,rot64-t512-g32-b1-p256-fe > $L/c128ip-r$r.log 2>&1
  bk --types u16 --shapes 16384x16384,32768x32768 \
    --variant default,tile-64x64w16,tile-128x128w16-t256 > $L/u16-r$r.log 2>&1
  echo "round $r (${SECONDS}s)"; pack
done
grep -l -E "FAIL|mismatch" $L/*.log
bench/compare_table.sh $L/*-r?.log | tee $L/table.txt
bench/compare_table.sh --inplace $L/*-r?.log | tee $L/inplace.txt
pack; echo "total ${SECONDS}s"
