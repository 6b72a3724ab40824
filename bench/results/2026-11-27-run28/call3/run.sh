#!/usr/bin/env bash
# Run 28, call 3 (kernels/NOTES.md "Run 28"): thin in four builds (run 27's, stepped loops
# unrolled 1 / 2 / 4 times), interleaved twice, at call 2's shapes; counters with occupancy.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
shapes() {
  local t=$1 bytes=$2 par=$3; shift 3; local S="" m n
  for m in "$@"; do
    n=$(( bytes / (m * ${SZ[$t]}) ))
    case $par in a4) n=$(( n & ~3 ));; odd) n=$(( n | 1 ));; esac
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  echo "$S"
}
for round in 1 2; do
  for t in u8 u16 f32 f64 c128; do
    if [ ${SZ[$t]} -lt 4 ]; then
      K="$(shapes $t 536870912 a4 3 8 24 64 128 200),$(shapes $t 536870912 odd 3 8 24 64 128 200)"
    else
      [ $round = 2 ] && continue
      K="$(shapes $t 536870912 any 3 8 24 64 128)"
    fi
    for b in r27 u1 u2 u4; do
      timeout 60 $B/bench_kernels_$b --compare --reps 10 --variant thin --types $t --shapes $K > $L/step-$t-$b-$round.log 2>&1
    done
  done
  echo "round $round (${SECONDS}s)"
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,dram__throughput.avg.pct_of_peak_sustained_elapsed
timeout 200 ncu --clock-control none -k regex:'thin' --metrics $M --csv $B/bench_kernel_counters \
  oop:1:24x22369620:thin oop:1:24x22369621:thin oop:1:22369620x24:thin oop:1:22369621x24:thin \
  oop:2:24x11184810:thin oop:2:11184810x24:thin oop:2:24x11184811:thin oop:2:11184811x24:thin > $L/ncu.csv 2> $L/ncu.err
echo "ncu rc=$? (${SECONDS}s)"
tar czf $O/logs.tgz -C /tmp logs
python3 - "$L/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault(r[0],{})[r[12]]=r[14]
print("u8 24xA4 / 24xO4 / A4x24 / O4x24, u16 24xA4 / A4x24 / 24xO4 / O4x24")
for a in sorted({m for v in d.values() for m in v}):
    print(f"{a[:48]:48s}", " ".join(f"{d[k].get(a,'-'):>11s}" for k in d))
PY
echo "== thin x memcpy: r27 u1 u2 u4 (round 1 | round 2)"
for t in u8 u16 f32 f64 c128; do
  files=()
  for round in 1 2; do for b in r27 u1 u2 u4; do
    f=$L/step-$t-$b-$round.log
    [ -f $f ] && { awk '$3=="cand"{print $7 ($9=="ok"?"":"!")}' $f > $f.col; files+=($f.col); }
  done; done
  awk '$3=="cand"{print $1, $2}' $L/step-$t-r27-1.log > $L/step-$t.names
  paste $L/step-$t.names "${files[@]}"
done
echo "total ${SECONDS}s"
