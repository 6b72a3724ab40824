#!/usr/bin/env bash
# Run 15, call 5: the SASS of the f32 odd-n strip kernel with the run-time decode (the default)
# and with -cg, to find what call 3's 3.4 % at odd n comes from. Memory and barrier
# instructions in order, per kernel.
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
cuobjdump -sass -fun '_ZN5xpose7kernels9cuda_tile20inplace_strip_kernelINS1_10TileConfigILi4ELi4ELi32ELi32ELi512ELi2ELi4EEELi4ELi128ELi4ELi0ELi0EEEvNS1_13InplaceParamsE' $B/xpose_gpu_tests > $O/default.sass 2>&1; echo "rc=$?"
cuobjdump -sass -fun '_ZN5xpose7kernels9cuda_tile20inplace_strip_kernelINS1_10TileConfigILi4ELi4ELi32ELi32ELi512ELi2ELi4EEELi4ELi128ELi4ELi8ELi0EEEvNS1_13InplaceParamsE' $B/xpose_gpu_tests > $O/cg.sass 2>&1; echo "rc=$?"
for f in default cg; do
  echo "== $f: $(grep -cE '^\s+/\*[0-9a-f]+\*/' $O/$f.sass) instructions"
  grep -oE '(LDG|STG|LDS|STS|BAR|CALL|BRA|MUFU|DSQRT|DMUL|DFMA|I2F|F2I)[.A-Z0-9]*' $O/$f.sass | uniq -c | head -80 > $O/$f.mem.txt
  grep -oE '\b[A-Z][A-Z0-9]+(\.[A-Z0-9]+)*' $O/$f.sass | awk '{print $1}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -25
done
diff <(cat $O/default.mem.txt) <(cat $O/cg.mem.txt) | head -60
