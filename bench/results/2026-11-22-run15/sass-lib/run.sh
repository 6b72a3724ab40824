#!/usr/bin/env bash
# Run 15, call 6: the SASS of the library's default kernels (out of place: tiled and skewed for
# f32 / f64 / c128; in place: the aligned pair kernels and the odd-n strip and multi-pair
# kernels), reduced to the order of their global loads (L), shared stores (S), shared loads (l),
# global stores (W) and barriers (|): is any global load placed after shared stores, as in
# run 15's -cg candidate?
set -uo pipefail
source .gpu-bundle/env.sh
B=.gpu-bundle/bin; O=${OUT:-/tmp/out}; mkdir -p $O
cuobjdump -sass $B/xpose_gpu_tests > /tmp/all.sass 2>&1; echo "cuobjdump rc=$? $(wc -l < /tmp/all.sass) lines"
python3 - /tmp/all.sass <<'PY' | tee $O/memorder.txt
import re, sys
want = {
 "oop f32 tiled": "tiled_kernelINS1_10TileConfigILi4ELi8ELi32ELi32ELi256ELi1ELi0EEE",
 "oop f64 tiled": "tiled_kernelINS1_10TileConfigILi8ELi8ELi32ELi64ELi256ELi3ELi0EEE",
 "oop c128 tiled": "tiled_kernelINS1_10TileConfigILi16ELi16ELi16ELi16ELi256ELi1ELi0EEE",
 "oop f32 skew": "skew_kernelINS1_10SkewConfigILi4ELi16ELi64ELi64ELi256ELi32ELi4ELi4EEE",
 "oop f64 skew": "skew_kernelINS1_10SkewConfigILi8ELi16ELi32ELi64ELi256ELi32ELi4ELi0EEE",
 "oop c128 skew": "skew_kernelINS1_10SkewConfigILi16ELi16ELi32ELi32ELi256ELi32ELi4ELi0EEE",
 "ip f32 aligned": "inplace_kernelINS1_10TileConfigILi4ELi16ELi16ELi16ELi256ELi1ELi0EEELNS1_9PairOrderE1EEE",
 "ip f64 aligned": "inplace_kernelINS1_10TileConfigILi8ELi16ELi16ELi16ELi256ELi1ELi0EEELNS1_9PairOrderE1EEE",
 "ip c128 aligned": "inplace_kernelINS1_10TileConfigILi16ELi16ELi32ELi32ELi256ELi1ELi0EEELNS1_9PairOrderE1EEE",
 "ip f32 odd strip": "inplace_strip_kernelINS1_10TileConfigILi4ELi4ELi32ELi32ELi512ELi2ELi4EEELi4ELi128ELi4EEE",
 "ip f64 odd strip": "inplace_strip_kernelINS1_10TileConfigILi8ELi8ELi32ELi32ELi512ELi2ELi4EEELi4ELi128ELi4EEE",
 "ip c128 multi": "inplace_multi_kernelINS1_10TileConfigILi16ELi16ELi32ELi32ELi256ELi1ELi4EEELNS1_9PairOrderE2ELi2EEE",
}
funcs = {}; cur = None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"\s+Function : (\S+)", line)
    if m: cur = m.group(1); funcs[cur] = []; continue
    if cur is None: continue
    m = re.match(r"\s+/\*[0-9a-f]{4}\*/\s+(.*?);", line)
    if m: funcs[cur].append(m.group(1))
def cls(ins):
    op = re.sub(r"^@!?U?P\w+\s+", "", ins).split()[0]
    if op.startswith("LDG") or op.startswith("LD.E") or op.startswith("LDGSTS"): return "L"
    if op.startswith("STS"): return "S"
    if op.startswith("LDS"): return "l"
    if op.startswith("STG") or op.startswith("ST.E"): return "W"
    if op.startswith("BAR"): return "|"
    if op.startswith("EXIT"): return "X"
    return None
for label, key in want.items():
    names = [n for n in funcs if key in n]
    if not names: print(f"{label:18s} not found ({key})"); continue
    for n in names[:1]:
        seq = "".join(c for c in (cls(i) for i in funcs[n]) if c)
        rl = re.sub(r"(.)\1*", lambda m: m.group(1) + (str(len(m.group(0))) if len(m.group(0)) > 1 else ""), seq)
        late = [m.start() for m in re.finditer(r"S[^|X]*?L", seq)]
        print(f"{label:18s} {len(funcs[n]):5d} instr  {rl}")
        print(f"{'':18s} global load after a shared store before the next barrier: {'yes' if late else 'no'}")
PY
