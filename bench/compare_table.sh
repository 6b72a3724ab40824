#!/usr/bin/env bash
# Collapses `bench_kernels --compare` logs named LABEL-rROUND.log into one line a label, shape and
# kernel: "LABEL SHAPE KERNEL GB/s(round 1) GB/s(round 2) ...", the candidates, cuBLAS geam and
# memcpy, verified outputs only (a kernel whose output failed verification is left out: look for
# FAIL in the logs). The table each call of kernels/NOTES.md's device runs prints; --whole gives
# the GB/s in whole numbers (the short form a call prints last); --inplace tabulates the in-place
# candidates (cand-inplace rows) instead.
#   bench/compare_table.sh [--whole] [--inplace] DIR/*-r?.log > DIR/table.txt
set -euo pipefail
export LC_ALL=C  # the same order on every machine
whole=0
inplace=0
while [ $# -gt 0 ]; do
  case "$1" in
    --whole) whole=1 ;;
    --inplace) inplace=1 ;;
    *) break ;;
  esac
  shift
done
for f in "$@"; do
  b=$(basename "$f" .log)
  r=${b##*-r}
  b=${b%-r*}
  awk -v r="$r" -v b="$b" -v ip="$inplace" '
    ip && $3 == "cand-inplace" && $9 == "ok" {print b, $2, $4, r, $6}
    !ip && ($3 == "cand" || $3 == "cublas-geam") && $9 == "ok" {print b, $2, $4, r, $6}
    !ip && $3 == "memcpy" && $2 != "shape" {print b, $2, "memcpy", r, $7}' "$f"
done | sort -k1,1V -k2,2V -k3,3 -k4,4 |
  awk -v whole="$whole" '{k = $1 " " $2 " " $3; v[k] = v[k] " " (whole ? sprintf("%d", $5) : $5)
      if (!(k in o)) {o[k] = ++n; key[n] = k}}
    END {for (i = 1; i <= n; i++) print key[i] v[key[i]]}'
