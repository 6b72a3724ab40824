#!/usr/bin/env bash
# Run 28, call 4 (kernels/NOTES.md "Run 28"): (1) thin of this build against run 27's, two
# interleaved rounds; (2) round 3 held out again for u8 / u16 (call 2's shapes); (3) the thin
# tests, memcheck and racecheck on SanitizerThin.
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
    case $par in a4) n=$(( n & ~3 ));; odd) n=$(( n | 1 ));; two) n=$(( (n & ~3) | 2 ));; esac
    S="$S${S:+,}${m}x${n},${n}x${m}"
  done
  echo "$S"
}
for round in 1 2; do
  for t in u8 u16 f32 f64 c128; do
    if [ ${SZ[$t]} -lt 4 ]; then
      K="$(shapes $t 536870912 a4 3 8 24 64 128 200),$(shapes $t 536870912 odd 3 8 24 64 128 200)"
      [ $t = u8 ] && K="$K,$(shapes $t 536870912 two 24 128)"
    else
      K="$(shapes $t 536870912 any 3 8 24 64 128)"
    fi
    for b in bench_kernels_r27 bench_kernels; do
      timeout 60 $B/$b --compare --reps 10 --variant thin --types $t --shapes $K > $L/step-$t-$b-$round.log 2>&1
    done
  done
  echo "round $round (${SECONDS}s)"
done
run() { timeout 100 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types $2 --shapes $3 > $L/held-$1.log 2>&1; echo "$1 rc=$? (${SECONDS}s)"; }
H=402653184
run u8-a4 u8 "$(shapes u8 $H a4 144 145 148 155 165 170 185 196 210 224 244 252)"
run u8-o4 u8 "$(shapes u8 $H odd 104 105 116 126 132 142 155 228 232),$(shapes u8 $H two 104 126 132 148 165 232 248)"
run u16-a4 u16 "$(shapes u16 $H a4 108 112 121 125 129 132 142 145 155 160 165 170 180)"
run u16-o4 u16 "$(shapes u16 $H odd 61 65 104 110 113 116 119 122 128 133)"
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=n;i++){k=key[i]; d=x[k",default"]; t=x[k",thin"]; r=x[k",nothin"]; b=(t>r?t:r);
        printf "%-24s default %s thin %s nothin %s %s\n", k, d, t, r, (d < 0.97*b ? "BEHIND" : "")}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/held-*.log > $L/held-table.txt
timeout 240 $B/xpose_gpu_tests --gtest_filter='CudaKernels.LargerSquare*:CudaKernels.Random*:CudaKernels.ThinCandidate:CudaKernels.SanitizerThin:CudaKernels.EveryVariantOutOfPlace' > $L/tests.log 2>&1
echo "tests rc=$? (${SECONDS}s)"; grep -E "^\[  (PASSED|FAILED) |Failure" $L/tests.log | head
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 $B/xpose_gpu_tests --gtest_filter=CudaKernels.SanitizerThin > $L/san-$tool.log 2>&1
  echo "$tool rc=$? (${SECONDS}s)"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $L/san-$tool.log | head -3
done
tar czf $O/logs.tgz -C /tmp logs
echo "== thin x memcpy: r27 new (round 1 | round 2)"
for t in u8 u16 f32 f64 c128; do
  files=()
  for round in 1 2; do for b in bench_kernels_r27 bench_kernels; do
    f=$L/step-$t-$b-$round.log; awk '$3=="cand"{print $7 ($9=="ok"?"":"!")}' $f > $f.col; files+=($f.col)
  done; done
  awk '$3=="cand"{print $1, $2}' $L/step-$t-bench_kernels_r27-1.log > $L/step-$t.names
  paste $L/step-$t.names "${files[@]}"
done
echo "== held-out"; cat $L/held-table.txt; echo "total ${SECONDS}s"
