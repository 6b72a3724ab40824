#!/usr/bin/env bash
# The file transpose against the machine's file-copy ceiling (bench_file_copy_ceiling), measured in
# the same run: float32 1-32 GiB, float64 and complex128 at 32 GiB and a 3-D batch on tmpfs, then
# 16 GiB on local disk with a cold cache; --backend cuda (1 rank), cpu (16 ranks), and where set,
# cpu and auto on 1 rank. Run from the repository root on a GPU node, with the programs packed in
# .gpu-bundle/ (xpose, bench_file_copy_ceiling). SIZES, BIG and DISK choose the cases; a table last.
set -uo pipefail
source .gpu-bundle/env.sh
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
B=$PWD/.gpu-bundle/bin
O=${OUT:-/tmp/out}; mkdir -p "$O"
nvidia-smi -L; nproc; free -g | head -2
mount -o remount,size=118G /dev/shm 2>/dev/null || true
drop() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null; }
TABLE=$O/table52.txt; : > "$TABLE"
row() { echo "$*" | tee -a "$TABLE"; }
gen() {  # file shape dtype
  mpirun -np 16 --bind-to none "$B/xpose" generate "$1:/m" --shape "$2" --dtype "$3" --quiet --force || echo "generate $1 failed"
}
ceiling() {  # file workdir threads [--cold] -> seconds
  "$B/bench_file_copy_ceiling" --input "$1" --workdir "$2" --threads "$3" ${4:-} > "$O/ceil.tmp" 2>&1
  cat "$O/ceil.tmp" >> "$O/ceilings.txt"
  sed -n 's/^ceiling: \([0-9.]*\) s.*/\1/p' "$O/ceil.tmp"
}
xrun() {  # label np in out args... -> prints wall seconds from the summary (or FAIL)
  local label=$1 np=$2 in=$3 out=$4; shift 4
  rm -f "$out"; drop
  mpirun -np "$np" --bind-to none "$B/xpose" transpose "$in:/m" "$out:/m" --quiet --json "$O/$label.json" "$@" \
    > "$O/$label.log" 2>&1
  local rc=$?
  python3 - "$O/$label.json" "$rc" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    extra = d.get('backend_choice', '')
    print('%.2f %s %s' % (d['wall_seconds'], d['backend'], ('rc=' + sys.argv[2]) if sys.argv[2] != '0' else ''), file=sys.stdout)
    if extra: print(extra, file=sys.stderr)
except Exception as e:
    print('FAIL rc=%s' % sys.argv[2])
PY
}
W=/dev/shm/x; mkdir -p $W
# ---- size table, float32 on tmpfs: cuda (1 rank), cpu (16 ranks); full set at 8 and 32 GiB
SIZES=${SIZES:-"1:16384x16384 4:32768x32768 8:32768x65536 16:65536x65536 32:65536x131072"}
BIG=${BIG:-"f64:32:65536x65536:float64 c128:32:32768x65536:complex128 batch:8:4x16384x32768:float32"}
DISK=${DISK:-32768x131072}
for spec in $SIZES; do
  gib=${spec%%:*}; shape=${spec#*:}
  gen $W/a.h5 $shape float32
  c=$(ceiling $W/a.h5 $W 16)
  cu=$(xrun f32-$gib-cuda 1 $W/a.h5 $W/t.h5 --backend cuda 2>>$O/choices.txt)
  cp16=$(xrun f32-$gib-cpu16 16 $W/a.h5 $W/t.h5 --backend cpu 2>>$O/choices.txt)
  extra=""
  if [ "$gib" = 8 ] || [ "$gib" = 32 ]; then
    cp1=$(xrun f32-$gib-cpu1 1 $W/a.h5 $W/t.h5 --backend cpu 2>>$O/choices.txt)
    au=$(xrun f32-$gib-auto1 1 $W/a.h5 $W/t.h5 2>>$O/choices.txt)
    extra="| cpu1 $cp1 | auto1 $au"
  fi
  row "tmpfs f32 ${gib}GiB | ceiling $c | cuda1 $cu | cpu16 $cp16 $extra"
done
mpirun -np 16 --bind-to none "$B/xpose" verify $W/a.h5:/m $W/t.h5:/m --quiet > $O/verify32.txt 2>&1; row "verify 32 GiB (last run): rc=$? $(tail -1 $O/verify32.txt)"
C32=$c
rm -f $W/*.h5
# ---- f64 and complex128 at 32 GiB (same bytes, so the same ceiling), a batch (3-D) dataset at 8 GiB
for spec in $BIG; do
  IFS=: read -r name gib shape dtype <<< "$spec"
  gen $W/a.h5 $shape $dtype
  if [ "$gib" = 32 ]; then c=$C32; else c=$(ceiling $W/a.h5 $W 16); fi
  cu=$(xrun $name-cuda 1 $W/a.h5 $W/t.h5 --backend cuda 2>>$O/choices.txt)
  cp16=$(xrun $name-cpu16 16 $W/a.h5 $W/t.h5 --backend cpu 2>>$O/choices.txt)
  row "tmpfs $name ${gib}GiB $shape | ceiling $c | cuda1 $cu | cpu16 $cp16"
  rm -f $W/*.h5
done
rm -rf $W
# ---- local disk, 16 GiB float32, cold cache
W=/var/tmp/x; mkdir -p $W
gen $W/a.h5 $DISK float32
c=$(ceiling $W/a.h5 $W 8,16 --cold)
cu=$(xrun disk-cuda 1 $W/a.h5 $W/t.h5 --backend cuda 2>>$O/choices.txt)
cp16=$(xrun disk-cpu16 16 $W/a.h5 $W/t.h5 --backend cpu 2>>$O/choices.txt)
au=$(xrun disk-auto1 1 $W/a.h5 $W/t.h5 2>>$O/choices.txt)
row "disk f32 16GiB cold | ceiling $c | cuda1 $cu | cpu16 $cp16 | auto1 $au"
rm -rf $W
echo "== backend choices"; sort -u $O/choices.txt | cut -c1-300
echo "== table (seconds: xpose wall from its summary; ceiling: fastest parallel copy)"; cat "$TABLE"
