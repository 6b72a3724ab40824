#!/usr/bin/env bash
# Run 35, call 9 (kernels/NOTES.md "Run 35"): u8 out of place at odd n, default against the
# skewed and the 128-tile narrow kernels, two rounds (the command as run, on the warm machine of
# call 8; its output is output.txt).
source .gpu-bundle/env.sh; for r in 1 2; do .gpu-bundle/bin/bench_kernels --compare --reps 30 --types u8 --variant default,nskew-256x256-t512-b2-n3-cm,narrow-128-t256-b4-cm --shapes 3301x3301,2501x2501,1801x1801,3501x3501,6001x1101,1201x1201 | awk -v r=$r '$3=="cand"&&$9=="ok"{print r, $2, $4, $6}'; done
