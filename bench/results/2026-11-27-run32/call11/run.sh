#!/usr/bin/env bash
# Run 32, call 11 (kernels/NOTES.md "Run 32"): the spread as a template parameter: goal snapshot
# (two rounds), the spread defaults, the whole GPU suite, the CLI tests with --backend cuda.
set -uo pipefail
source .gpu-bundle/env.sh
B=$PWD/.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
bk() { local log=$1; shift; timeout 150 $B/bench_kernels --compare --reps 10 "$@" > $L/$log.log 2>&1; echo "$log rc=$? (${SECONDS}s)"; tar czf $O/logs.tgz -C /tmp logs; }
for r in 1 2; do
  bk goal-r$r --types f32,f64,c128 --variant default --shapes 16384x16384,32768x32768,20000x30000,16411x16411
done
bk sp-f32 --types f32 --variant default,skew-64x64w16-b4-g16k-p256-sp5 --shapes 81920x2049
bk sp-f64 --types f64 --variant default,skew-32x64w16-b4-g16k-sp5 --shapes 40960x3001
bk sp-c128 --types c128 --variant default,skew-32x32-b4-g16k-sp5 --shapes 40960x1501
bk sp-u8 --types u8 --variant default,nskew-256x256-t512-b2-n3-sweep-sp5,nskew-256x256-t512-b2-n3-sweep --shapes 327680x2500
bk sp-u16 --types u16 --variant default,narrow-128-t512-b2-sweep-sp5,narrow-128-t512-b2-sweep --shapes 163840x2500
timeout 300 $B/xpose_gpu_tests > $L/suite.log 2>&1
echo "suite rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/suite.log | head -12
tar czf $O/logs.tgz -C /tmp logs
timeout 200 python3 tests/cli/test_cli.py --xpose "$B/xpose" --np 1 --mpiexec "mpirun --oversubscribe --bind-to none" \
  --extra "--backend cuda" --group shapes --group dtypes --group layouts --group streaming --group resume > $L/cli.log 2>&1
echo "cli rc=$? (${SECONDS}s)"; tail -5 $L/cli.log
tar czf $O/logs.tgz -C /tmp logs
echo "== goal snapshot: round, type, shape, GB/s, x memcpy"
for r in 1 2; do awk -v r=r$r '$3=="cand"&&$4=="default"{print r, $1, $2, $6, $7, $9}' $L/goal-r$r.log; done | sort -k2,2 -k3,3 -k1,1
echo "== spread"; awk '$3=="cand"{print $1, $2, $4, $7, $9}' $L/sp-*.log
echo "total ${SECONDS}s"
