#!/usr/bin/env bash
# Run 29, call 5 (kernels/NOTES.md "Run 29"): the records dispatch on held-out long sides (set C:
# 256 MiB, wide rows on 32-byte sectors; set D: 256 MiB, wide rows 4 bytes past a sector), the
# new default against the old one (norecords) and both records forms; then the record on the
# final code (tests/gpu/device_run.sh: GPU suite, sanitizers, bench_kernels' goal table).
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; L=/tmp/logs; mkdir -p $O $L
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee $L/gpu.txt
SECONDS=0
declare -A SZ=([u8]=1 [u16]=2)
# shapes T BYTES ORIENT ADD: m = 1..16, long side n = BYTES / (m S) rounded down to a multiple of
# 32 / S elements (rows of whole sectors), plus ADD elements.
shapes() {
  local t=$1 bytes=$2 o=$3 add=$4 S="" m n q=$(( 32 / ${SZ[$t]} ))
  for m in $(seq 1 16); do
    n=$(( bytes / (m * ${SZ[$t]}) / q * q + add ))
    if [ $o = rows ]; then S="$S${S:+,}${m}x${n}"; else S="$S${S:+,}${n}x${m}"; fi
  done
  echo "$S"
}
run() {  # name type shapes
  timeout 150 $B/bench_kernels --compare --reps 10 --variant default,norecords,records,records-gs --types $2 --shapes $3 > $L/$1.log 2>&1
  echo "$1 rc=$? (${SECONDS}s)"
}
for t in u8 u16; do
  P=$(( 4 / ${SZ[$t]} ))
  run C-$t-cols $t "$(shapes $t 268435456 cols 0)"
  run D-$t-cols $t "$(shapes $t 268435456 cols $P)"
  run C-$t-rows $t "$(shapes $t 268435456 rows 0)"
done
tests/gpu/device_run.sh $B $L/record
tar czf $O/logs.tgz -C /tmp logs
echo "== x memcpy: shape, default / norecords / records / records-gs"
col() { awk -v v=$2 '$3=="cand" && $4==v{print $7 ($9=="ok"?"":"!")}' $1; }
for f in C-u8-cols D-u8-cols C-u16-cols D-u16-cols C-u8-rows C-u16-rows; do
  echo "-- $f"
  paste <(awk '$3=="cand" && $4=="default"{print $2}' $L/$f.log) <(col $L/$f.log default) \
        <(col $L/$f.log norecords) <(col $L/$f.log records) <(col $L/$f.log records-gs) | paste - -
done
grep -E "dispatch entry" $L/record/tests.log | head -12
echo "total ${SECONDS}s"
