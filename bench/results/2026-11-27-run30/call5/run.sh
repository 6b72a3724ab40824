#!/usr/bin/env bash
# Run 30, call 5 (kernels/NOTES.md "Run 30"): f32 on one-stack output pitches: the new default on
# rows on 256 bytes against the tiled kernel; off 256 bytes the tiled default against column order
# without the 256-byte fetch hint. Two rounds. Tables read by candidate name.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 200 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; }
for r in 1 2; do
  bk on256-r$r --types f32 --variant default,tile-64x64w8 --shapes 81920x3072,163840x2048,81920x12800,245760x1024
  bk odd128-r$r --types f32 --variant default,skew-64x64w16-b4-cm --shapes 163840x2080,81920x7200,81920x2080,245760x1056
  bk off128-r$r --types f32 --variant default,skew-64x64w16-b4-cm --shapes 81920x2049,81920x3001,163840x1001
done
tar czf $O/logs.tgz -C /tmp logs
for t in on256 odd128 off128; do
  echo "== $t: round, shape, candidate, x memcpy, verified"
  awk '$3=="cand"{f=FILENAME; sub(/.*-r/,"r",f); sub(/\.log/,"",f); print f, $2, $4, $7, $9}' $L/$t-r1.log $L/$t-r2.log
done
echo "total ${SECONDS}s"
