#!/usr/bin/env bash
# Run 27, call 3 (kernels/NOTES.md "Run 27"): the record on the round-2 thin ranges
# (device_run.sh: GPU suite, sanitizers with SanitizerThin, goal table); held-out short sides for
# round 2, default against thin and nothin; u16 short rows off 4 bytes, default (thin, shifted
# words) against nothin, for the record. Logs in one tarball.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 380 tests/gpu/device_run.sh $B $L/record > $L/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
declare -A M
M[u8]="129 130 137 235 238 242 246"
M[u16]="114 115 118"
M[f32]="29 35 36 65 67 71 73 75 239 241"
M[f64]="21 23 34 35 41 43 67 78 82 199 201"
M[c128]="17 19 21 34 43 97 99 101 127 129"
for t in u8 u16 f32 f64 c128; do
  S=""
  for m in ${M[$t]}; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  [ $t = u8 ] && S="$S,137x3918759,238x2255759,242x2218475"
  [ $t = u16 ] && S="$S,2354687x114"
  timeout 80 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types $t --shapes $S > $L/held-$t.log 2>&1
  echo "held $t rc=$? (${SECONDS}s)"
done
S=""; for m in 24 32 48 64 80 96; do n=$(( (268435456 / m) | 1 )); S="$S${S:+,}${m}x${n}"; done
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,nothin --types u16 --shapes $S > $L/off4-u16.log 2>&1
echo "off4 rc=$? (${SECONDS}s)"
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=n;i++){k=key[i]; d=x[k",default"]; t=x[k",thin"]; r=x[k",nothin"]; b=(t>r?t:r);
        printf "%-24s default %s thin %s nothin %s %s\n", k, d, (t==""?"-":t), r, (d < 0.97*b ? "BEHIND" : "")}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/held-*.log $L/off4-u16.log > $L/held-table.txt
tar czf $O/logs.tgz -C /tmp logs
echo "== record"; cat $L/record.log
grep -E "out of place,|in place," $L/record/tests.log | head -10
echo "== held-out"; cat $L/held-table.txt
echo "total ${SECONDS}s"
