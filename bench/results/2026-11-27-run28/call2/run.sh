#!/usr/bin/env bash
# Run 28, call 2 (kernels/NOTES.md "Run 28"): (1) the thin kernel's stepped indices against run
# 27's kernel (bench_kernels_r27, built from 8767a77), candidate thin in both; (2) counters of the
# new u8 thin at call 1's shapes; (3) round 3's ranges on held-out short sides (384 MiB: other long
# sides; u8 off 4 bytes also with long sides 2 mod 4); (4) the thin tests and sanitizers.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
shapes() {  # $1 type, $2 bytes, $3 long side's class (a4: multiple of 4, odd, two: 2 mod 4, any)
  local t=$1 bytes=$2 par=$3; shift 3; local S="" m n
  for m in "$@"; do
    n=$(( bytes / (m * ${SZ[$t]}) ))
    case $par in a4) n=$(( n & ~3 ));; odd) n=$(( n | 1 ));; two) n=$(( (n & ~3) | 2 ));; esac
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  echo "$S"
}
table() {  # $1: logs; default / thin / nothin per shape
  awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
    END{for(i=1;i<=n;i++){k=key[i]; d=x[k",default"]; t=x[k",thin"]; r=x[k",nothin"]; b=(t>r?t:r);
          printf "%-24s default %s thin %s nothin %s %s\n", k, d, t, r, (d < 0.97*b ? "BEHIND" : "")}
        if(bad!="") print "NOT VERIFIED:" bad}' "$@"
}
# (1) stepped indices (new) against run 27's thin, 512 MiB, same shapes, new / old / new again.
for t in u8 u16; do
  K="$(shapes $t 536870912 a4 3 8 24 64 128 200),$(shapes $t 536870912 odd 3 8 24 64 128 200)"
  for b in bench_kernels bench_kernels_r27 bench_kernels; do
    timeout 60 $B/$b --compare --reps 10 --variant thin --types $t --shapes $K >> $L/step-$t-$b.log 2>&1
  done
done
for t in f32 f64 c128; do
  K="$(shapes $t 536870912 any 3 8 24 64 128)"
  for b in bench_kernels bench_kernels_r27 bench_kernels; do
    timeout 60 $B/$b --compare --reps 10 --variant thin --types $t --shapes $K >> $L/step-$t-$b.log 2>&1
  done
done
echo "step done (${SECONDS}s)"
# (2) counters, call 1's launches on the new kernel
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
timeout 200 ncu --clock-control none -k regex:'thin' --metrics $M --csv $B/bench_kernel_counters \
  oop:1:24x22369620:thin oop:1:24x22369621:thin oop:1:22369620x24:thin oop:1:22369621x24:thin \
  oop:1:128x4194304:thin oop:1:128x4194305:thin oop:2:24x11184810:thin oop:4:24x5592405:thin > $L/ncu.csv 2> $L/ncu.err
echo "ncu rc=$? (${SECONDS}s)"
# (3) held-out short sides for round 3
run() { timeout 100 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types $2 --shapes $3 > $L/held-$1.log 2>&1; echo "$1 rc=$? (${SECONDS}s)"; }
H=402653184
run u8-a4 u8 "$(shapes u8 $H a4 144 145 148 155 165 170 185 196 210 224 244 252)"
run u8-o4 u8 "$(shapes u8 $H odd 104 105 116 126 132 142 155 228 232),$(shapes u8 $H two 104 126 132 148 165 232 248)"
run u16-a4 u16 "$(shapes u16 $H a4 108 112 121 125 129 132 142 145 155 160 165 170 180)"
run u16-o4 u16 "$(shapes u16 $H odd 61 65 104 110 113 116 119 122 128 133)"
run f32 f32 "$(shapes f32 $H any 19 27 35 39 42 45 50 62 69 79 82 83)"
run f64 f64 "$(shapes f64 $H any 19 26 27 29 37 46 49 50 67 73 74 81 87)"
run c128 c128 "$(shapes c128 $H any 11 13 15 39 50 104 106)"
table $L/held-*.log > $L/held-table.txt
# (4) tests and sanitizers on the thin kernel
timeout 240 $B/xpose_gpu_tests --gtest_filter='CudaKernels.LargerSquare*:CudaKernels.Random*:CudaKernels.ThinCandidate:CudaKernels.SanitizerThin:CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|Failure" $L/tests.log | head
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.SanitizerThin > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; tail -2 $L/san-$tool.log
done
tar czf $O/logs.tgz -C /tmp logs
python3 - "$L/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault(r[0],{})[r[12]]=r[14]
print("u8 24xA4 / 24xO4 / A4x24 / O4x24 / 128xA4 / 128xO4, u16 24x, f32 24x")
for a in sorted({m for v in d.values() for m in v}):
    print(f"{a[:48]:48s}", " ".join(f"{d[k].get(a,'-'):>12s}" for k in d))
PY
echo "== stepped (new) / run 27 / new again, thin x memcpy"
for t in u8 u16 f32 f64 c128; do
  paste <(awk '$3=="cand"{print $1, $2, $7, $9}' $L/step-$t-bench_kernels.log | awk 'NR<=n' n=$(awk '$3=="cand"' $L/step-$t-bench_kernels_r27.log | wc -l)) \
        <(awk '$3=="cand"{print $7, $9}' $L/step-$t-bench_kernels_r27.log) \
        <(awk '$3=="cand"{print $7}' $L/step-$t-bench_kernels.log | tail -n +$(( $(awk '$3=="cand"' $L/step-$t-bench_kernels_r27.log | wc -l) + 1 )))
done
echo "== held-out"; cat $L/held-table.txt; echo "total ${SECONDS}s"
