#!/usr/bin/env bash
# Run 27, call 2 (kernels/NOTES.md "Run 27"): the GPU suite on the thin ranges and the u16-only
# shifted words; memcheck and racecheck on ThinCandidate; held-out short sides: default against
# thin and nothin (the kernels after thin); u16 short rows off 4 bytes at held-out m, default
# against thin-elemwide and thin-shifted. All logs go into one tarball (too many files came back
# short in call 1).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 200 $B/xpose_gpu_tests > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? from .* ran|Failure" $L/tests.log | head -20
grep -E "out of place,|in place," $L/tests.log | head -10
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*:*LargerSquare*' > $L/memcheck.log 2>&1
echo "memcheck rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|FAILED" $L/memcheck.log | head -3
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter='*ThinCandidate*' > $L/racecheck.log 2>&1
echo "racecheck rc=$? (${SECONDS}s)"; grep -E "RACECHECK SUMMARY|FAILED" $L/racecheck.log | head -3
declare -A SZ=([u8]=1 [u16]=2 [f32]=4 [f64]=8 [c128]=16)
declare -A M
M[u8]="133 134 138 236 244"
M[u16]="98 102 104 108 116 134 138"
M[f32]="18 22 26 30 31 32 34 66 70 74 238 242"
M[f64]="18 22 31 32 36 38 42 66 70 76 84 198 202"
M[c128]="18 22 31 32 36 42 98 102 126 130"
for t in u8 u16 f32 f64 c128; do
  S=""
  for m in ${M[$t]}; do
    n=$(( 536870912 / (m * ${SZ[$t]}) ))
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  [ $t = u8 ] && S="$S,133x4036623,136x3947581,3947581x136,240x2236963"
  [ $t = u16 ] && S="$S,100x2684355,2684355x100,2396747x112,136x1973791"
  timeout 100 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types $t --shapes $S > $L/held-$t.log 2>&1
  echo "held $t rc=$? (${SECONDS}s)"
done
S=""; for m in 7 17 45 77 100; do n=$(( (268435456 / m) | 1 )); S="$S${S:+,}${m}x${n}"; done
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,thin-elemwide,thin-shifted --types u16 --shapes $S > $L/shift-u16.log 2>&1
echo "shift rc=$? (${SECONDS}s)"
S=""; for m in 7 17 45 77 100; do n=$(( (536870912 / m) | 1 )); S="$S${S:+,}${m}x${n},${n}x${m}"; done
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,thin-elemwide,thin-shifted --types u8 --shapes $S > $L/shift-u8.log 2>&1
echo "shift rc=$? (${SECONDS}s)"
# Tables: x memcpy per variant; held-out: default against the better of thin and nothin.
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=n;i++){k=key[i]; d=x[k",default"]; t=x[k",thin"]; r=x[k",nothin"]; b=(t>r?t:r);
        printf "%-24s default %s thin %s nothin %s %s\n", k, d, (t==""?"-":t), r, (d < 0.97*b ? "BEHIND" : "")}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/held-*.log | tee $L/held-table.txt > /dev/null
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=n;i++){k=key[i]; printf "%-24s default %s elemwide %s shifted %s\n", k, x[k",default"], x[k",thin-elemwide"], x[k",thin-shifted"]}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/shift-u16.log $L/shift-u8.log | tee $L/shift-table.txt > /dev/null
tar czf $O/logs.tgz -C /tmp logs
echo "== held-out"; cat $L/held-table.txt
echo "== shifted"; cat $L/shift-table.txt
echo "total ${SECONDS}s"
