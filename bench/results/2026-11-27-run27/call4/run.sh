#!/usr/bin/env bash
# Run 27, call 4 (kernels/NOTES.md "Run 27"): the record on the final code (u16 short rows off 4
# bytes: thin up to 48 rows): device_run.sh (GPU suite, sanitizers, goal table); held-out u16
# short rows off 4 bytes, default against thin and nothin; the CLI tests with --backend cuda at
# 1 and 2 ranks. Logs in one tarball.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
timeout 330 tests/gpu/device_run.sh $B $L/record > $L/record.log 2>&1
echo "record rc=$? (${SECONDS}s)"
S=""; for m in 40 52 56 60 72 88; do n=$(( (268435456 / m) | 1 )); S="$S${S:+,}${m}x${n}"; done
timeout 60 $B/bench_kernels --compare --reps 10 --variant default,thin,nothin --types u16 --shapes $S > $L/held-u16.log 2>&1
echo "held rc=$? (${SECONDS}s)"
awk '$3=="cand" {k=$1" "$2; if(!(k in o)){o[k]=++n; key[n]=k}; x[k","$4]=$7; if($9!="ok" && $9!="n/a") bad=bad" "k"/"$4}
  END{for(i=1;i<=n;i++){k=key[i]; d=x[k",default"]; t=x[k",thin"]; r=x[k",nothin"]; b=(t>r?t:r);
        printf "%-24s default %s thin %s nothin %s %s\n", k, d, t, r, (d < 0.97*b ? "BEHIND" : "")}
      if(bad!="") print "NOT VERIFIED:" bad}' $L/held-u16.log > $L/held-table.txt
(SECTIONS=2 CLI_NPS="1 2" OUT=/tmp/cli-out timeout 200 bench/run_pipeline_gpu.sh > $L/cli.log 2>&1; echo "cli rc=$? (${SECONDS}s)")
tar czf $O/logs.tgz -C /tmp logs
echo "== record"; cat $L/record.log
grep -E "out of place,|in place," $L/record/tests.log | head -10
echo "== held-out"; cat $L/held-table.txt
echo "== cli"; grep -E "passed|failed|FAIL|OK|ran" $L/cli.log | tail -12
echo "total ${SECONDS}s"
