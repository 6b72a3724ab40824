#!/usr/bin/env bash
# Run 28 call 1 (prepared in run 27 as next/run.sh): default, thin and nothin where run 27's points leave the thin
# ranges open (kernels/NOTES.md "Run 27", "Next"): u8 / u16 with the wide rows on 4 bytes (a4:
# even long sides) and off them (o4: odd long sides) over the short sides no call measured in
# that class, and the short sides just outside the f32 / f64 / c128 ranges. 512 MiB each, about
# 2 minutes. Then: python3 ../rules/ranges.py --all, with this call's held-table.txt added.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
shapes() {  # $1 type, $2 parity (even / odd / any), then short sides: both orientations
  local t=$1 par=$2; shift 2; local S="" m n
  for m in "$@"; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    [ $par = even ] && n=$(( n & ~3 )); [ $par = odd ] && n=$(( n | 1 ))
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  echo "$S"
}
run() {  # $1 name, $2 type, $3 shapes
  timeout 100 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types $2 --shapes $3 > $L/held-$1.log 2>&1
  echo "$1 rc=$? (${SECONDS}s)"
}
run u8-a4 u8 "$(shapes u8 even 140 150 160 176 192 200 216 230 248)"
run u8-o4 u8 "$(shapes u8 odd 100 112 120 124 127 139 150 176 216 230 250)"
run u16-a4 u16 "$(shapes u16 even 106 110 120 124 127 130 140 150 176)"
run u16-o4 u16 "$(shapes u16 odd 63 66 70 117 120 125)"
run f32 f32 "$(shapes f32 any 17 36 37 38 63 76 77 78 81)"
run f64 f64 "$(shapes f64 any 24 25 30 44 45 47 65 68 69 71 83 85)"
run c128 c128 "$(shapes c128 any 10 12 14 16 23 44 45 47 103 105)"
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=n;i++){k=key[i]; d=x[k",default"]; t=x[k",thin"]; r=x[k",nothin"]; b=(t>r?t:r);
        printf "%-24s default %s thin %s nothin %s %s\n", k, d, t, r, (d < 0.97*b ? "BEHIND" : "")}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/held-*.log > $L/held-table.txt
# Counters: u8 thin, wide rows on 4 bytes (even long side) against off them (odd), both
# orientations, the library form and thin-shifted (kernels/NOTES.md, run 28 call 1).
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
timeout 200 ncu --clock-control none -k regex:'thin' --metrics $M --csv $B/bench_kernel_counters \
  oop:1:24x22369620:thin oop:1:24x22369621:thin oop:1:24x22369621:thin-shifted \
  oop:1:22369620x24:thin oop:1:22369621x24:thin oop:1:22369621x24:thin-shifted \
  oop:1:128x4194304:thin oop:1:128x4194305:thin > $L/ncu.csv 2> $L/ncu.err; echo "ncu rc=$? (${SECONDS}s)"
tail -3 $L/ncu.err
tar czf $O/logs.tgz -C /tmp logs
python3 - "$L/ncu.csv" <<'PY' || true
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>14 and r[0]!="ID"]
d={}
for r in rows: d.setdefault(r[0],{})[r[12]]=r[14]
names=sorted({m for v in d.values() for m in v})
print("launches: 24x22369620 / 24x22369621 / same thin-shifted / 22369620x24 / 22369621x24 / same thin-shifted / 128x4194304 / 128x4194305")
for a in names:
    print(f"{a[:50]:50s}", " ".join(f"{d[k].get(a,'-'):>13s}" for k in d))
PY
cat $L/held-table.txt; echo "total ${SECONDS}s"
