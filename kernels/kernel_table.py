#!/usr/bin/env python3
"""The kernel preference table: kernel_table.csv (the data) into kernel_table.inc (its C++ form),
and a check of the table against bench_kernels --compare measurements.

  python3 kernels/kernel_table.py generate [--check]
      writes kernels/kernel_table.inc from kernels/kernel_table.csv (--check: exit 1 where the
      checked-in .inc differs, writing nothing; ctest runs this)
  python3 kernels/kernel_table.py check BENCH.csv [BENCH.csv ...] [--tolerance 0.01]
      for every shape measured with --compare --csv, the table's kernel (the "default" row,
      which bench_kernels labels with the rule that chose it) against the fastest kernel
      measured there: prints each rule whose kernel trailed by more than the tolerance, with
      the shapes and the kernel that led. Edit the CSV where a rule should change (add a rule
      for the class of layouts that led, with the figures as its reason), then `generate`.
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
CSV_PATH = os.path.join(HERE, "kernel_table.csv")
INC_PATH = os.path.join(HERE, "kernel_table.inc")

ORDERS = {
    "": ("kDefault", 0),
    "row-major": ("kRowMajor", 0),
    "columns": ("kColumns", 0),
    "sweeps": ("kSweeps", 2),
    "spread": ("kSpread", 3),
    "stagger": ("kStagger", -1),
}


class TableError(Exception):
    pass


def per_sm(text):
    """Tiles or blocks per SM as hundredths (the C++ side compares count < h / 100 * sms)."""
    value = round(float(text) * 100)
    if abs(value - float(text) * 100) > 1e-6:
        raise TableError(f"per-SM count {text}: at most two decimals")
    return value


def kernel_ref(elem, in_place, name):
    return f'K({elem}, {"true" if in_place else "false"}, "{name}")'


def parse_cond(tok, elem, in_place):
    """One condition token -> (C++ kind, a, b, c); kernel references as K(...) expressions."""
    simple = {
        "short-rows": "kShortRows", "short-cols": "kShortCols", "wide-words": "kWideWords",
        "wide-off4": "kWideOff4", "thin-blocks": "kThinBlocks", "out-one-stack": "kOutOneStack",
        "!out-one-stack": "kNotOutOneStack", "in-one-stack": "kInOneStack", "!lines": "kOffLines",
    }
    if tok in simple:
        return (simple[tok], 0, 0, 0)
    patterns = [
        (r"in%(\d+)", lambda m: ("kInOn", m[1], 0, 0)),
        (r"in!%(\d+)", lambda m: ("kInOff", m[1], 0, 0)),
        (r"out%(\d+)", lambda m: ("kOutOn", m[1], 0, 0)),
        (r"out!%(\d+)", lambda m: ("kOutOff", m[1], 0, 0)),
        (r"(?:rows|n)<=(\d+)", lambda m: ("kRowsAtMost", m[1], 0, 0)),
        (r"(?:rows|n)>(\d+)", lambda m: ("kRowsOver", m[1], 0, 0)),
        (r"(?:rows|n)>=(\d+)", lambda m: ("kRowsAtLeast", m[1], 0, 0)),
        (r"tiles\((\d+)x(\d+)\)>=([\d.]+)", lambda m: ("kTilesAtLeast", m[1], m[2], per_sm(m[3]))),
        (r"tiles\((\d+)x(\d+)\)<([\d.]+)", lambda m: ("kTilesUnder", m[1], m[2], per_sm(m[3]))),
        (r"m:(\d+)-(\d+)", lambda m: ("kShortBetween", m[1], m[2], 0)),
        (r"m:(\d+)", lambda m: ("kShortBetween", m[1], m[1], 0)),
        (r"whole\((\d+)\)", lambda m: ("kWhole", m[1], 0, 0)),
        (r"partial-both\((\d+)\)", lambda m: ("kPartialBoth", m[1], 0, 0)),
        (r"partial\((\d+)\)<(\d+)%", lambda m: ("kPartialUnder", m[1], m[2], 0)),
        (r"rows<=(\d+)-or-wide", lambda m: ("kRowsAtMostOrWide", m[1], 0, 0)),
        (r"!short-in-pitch\((\d+)\)", lambda m: ("kNotShortInPitch", m[1], 0, 0)),
        (r"takes\(([\w.-]+)\)", lambda m: ("kTakes", kernel_ref(elem, in_place, m[1]), 0, 0)),
        (r"blocks\(([\w.-]+)\)<([\d.]+)",
         lambda m: ("kBlocksUnder", kernel_ref(elem, in_place, m[1]), per_sm(m[2]), 0)),
        (r"blocks1\(([\w.-]+)\)<([\d.]+)",
         lambda m: ("kBlocksOneUnder", kernel_ref(elem, in_place, m[1]), per_sm(m[2]), 0)),
        (r"blocks>=([\d.]+)", lambda m: ("kBlocksAtLeast", 0, per_sm(m[1]), 0)),
        (r"edge>=(\d+)", lambda m: ("kEdgeAtLeast", m[1], 0, 0)),
    ]
    for pattern, make in patterns:
        m = re.fullmatch(pattern, tok)
        if m:
            return make(m)
    raise TableError(f"unknown condition '{tok}'")


def parse_order(text):
    m = re.fullmatch(r"([a-z-]*)(?:\((.*)\))?", text.strip())
    if not m or m[1] not in ORDERS:
        raise TableError(f"unknown order '{text}'")
    kind, nargs = ORDERS[m[1]]
    args = [a.strip() for a in m[2].split(",")] if m[2] else []
    if kind == "kStagger":
        if not 1 <= len(args) <= 2:
            raise TableError(f"stagger(BAND[,balanced[<N]]): '{text}'")
        band = int(args[0])
        balanced, below = 0, 0
        if len(args) == 2:
            b = re.fullmatch(r"balanced(?:<(\d+))?", args[1])
            if not b:
                raise TableError(f"stagger's second argument is balanced[<N]: '{text}'")
            balanced, below = 1, int(b[1] or 0)
        return kind, [band, balanced, below]
    if len(args) != nargs:
        raise TableError(f"order '{text}' takes {nargs} arguments")
    return kind, [int(a) for a in args] + [0] * (3 - len(args))


def expand_lists(when):
    """'a & m:1-3,7 & b' -> ['a & m:1-3 & b', 'a & m:7 & b']: one rule per range."""
    parts = [p.strip() for p in when.split("&")] if when.strip() else []
    lists = [i for i, p in enumerate(parts) if p.startswith("m:")]
    if not lists:
        return [parts]
    if len(lists) > 1:
        raise TableError("one m: list a rule")
    i = lists[0]
    return [parts[:i] + ["m:" + r.strip()] + parts[i + 1:] for r in parts[i][2:].split(",")]


def read_table(path=CSV_PATH):
    """The rules, in order: dicts with the CSV's fields, 'line' and the expanded conditions."""
    with open(path, newline="") as f:
        lines = f.read().split("\n")
    provenance = [l[1:].strip() for l in lines if l.startswith("#")]
    body = [(i + 1, l) for i, l in enumerate(lines) if l.strip() and not l.startswith("#")]
    reader = csv.reader([l for _, l in body])
    header = next(reader)
    want = ["op", "elem", "device", "when", "kernel", "order", "reason"]
    if header != want:
        raise TableError(f"header must be {','.join(want)}")
    rules = []
    for (line, _), row in zip(body[1:], reader):
        if len(row) != len(want):
            raise TableError(f"line {line}: {len(row)} fields, want {len(want)}")
        r = dict(zip(want, row))
        r["line"] = line
        if r["op"] not in ("oop", "inplace") or r["elem"] not in ("1", "2", "4", "8", "16"):
            raise TableError(f"line {line}: op oop|inplace, elem 1|2|4|8|16")
        if r["device"] not in ("any", "hbm"):
            raise TableError(f"line {line}: device any|hbm")
        if not r["reason"].strip():
            raise TableError(f"line {line}: a rule needs its reason")
        rules.append(r)
    return provenance, rules


def cpp_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(path=CSV_PATH):
    provenance, rules = read_table(path)
    conds, out_rules, names = [], [], set()
    for r in rules:
        in_place = r["op"] == "inplace"
        elem = int(r["elem"])
        names.add((elem, in_place, r["kernel"]))
        try:
            kind, args = parse_order(r["order"])
            for parts in expand_lists(r["when"]):
                first = len(conds)
                for tok in parts:
                    c = parse_cond(tok, elem, in_place)
                    conds.append(c)
                    if c[0] in ("kTakes", "kBlocksUnder", "kBlocksOneUnder"):
                        names.add((elem, in_place, re.search(r'"(.*)"', c[1])[1]))
                out_rules.append((r, in_place, elem, kind, args, first, len(conds) - first))
        except TableError as e:
            raise TableError(f"line {r['line']}: {e}") from None
    out = [
        "// Generated by kernels/kernel_table.py from kernels/kernel_table.csv: edit the CSV and",
        "// run `python3 kernels/kernel_table.py generate`. The table's provenance (from the CSV):",
    ]
    start = next((i for i, l in enumerate(provenance) if l.startswith("Provenance")), None)
    if start is not None:
        for l in provenance[start:]:
            if not l:
                break
            out.append("//   " + l)
    out += [
        "// Included by kernels/choice.cpp, where K(elem, in_place, name) is kernel_index.",
        "",
    ]
    for elem, in_place, name in sorted(names):
        out.append(f"static_assert({kernel_ref(elem, in_place, name)} >= 0, "
                   f"\"kernel_table.csv names a kernel kernels.def lacks: {name}\");")
    out += ["", "inline constexpr Cond kConds[] = {"]
    for kind, a, b, c in conds:
        out.append(f"    {{CondKind::{kind}, {a}, {b}, {c}}},")
    if not conds:
        out.append("    {CondKind::kShortRows, 0, 0, 0},")
    out += ["};", "", "inline constexpr Rule kRules[] = {"]
    for r, in_place, elem, kind, args, first, count in out_rules:
        out.append(
            f"    {{{'true' if in_place else 'false'}, {elem}, "
            f"{'true' if r['device'] == 'hbm' else 'false'}, "
            f"{kernel_ref(elem, in_place, r['kernel'])}, OrderKind::{kind}, {args[0]}, {args[1]}, "
            f"{args[2]}, {first}, {count}, {r['line']},\n     {cpp_string(r['when'])},\n"
            f"     {cpp_string(r['reason'])}}},")
    out += ["};", ""]
    return "\n".join(out)


def check_bench(files, tolerance):
    """Rows of bench_kernels --compare --csv: type,shape,kernel,detail,ms,gbps,ratio,... The
    library kernels appear as kernel 'cand' (detail: name), the default as detail 'default'
    with the rule in column 'rule'."""
    by_shape = defaultdict(list)
    for path in files:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("status", "ok") != "ok":
                    continue
                key = (path, row.get("device", ""), row["type"], row["shape"])
                by_shape[key].append(row)
    behind = defaultdict(list)
    for key, rows in by_shape.items():
        cands = [r for r in rows if r["kernel"] == "cand"]
        dflt = [r for r in cands if r["detail"] == "default"]
        others = [r for r in cands if r["detail"] != "default"]
        if not dflt or not others:
            continue
        d = dflt[0]
        best = max(others, key=lambda r: float(r["gbps"]))
        lead = float(best["gbps"]) / float(d["gbps"]) - 1
        if lead > tolerance:
            behind[d.get("rule", "?")].append((key, best["detail"], lead))
    if not behind:
        print(f"every measured shape: the table's kernel within {tolerance:.1%} of the best")
        return 0
    for rule, items in sorted(behind.items()):
        print(f"rule at kernel_table.csv line {rule}: behind on {len(items)} shape(s)")
        for (path, device, typ, shape), name, lead in items:
            print(f"  {device} {typ} {shape}: {name} led by {lead:.1%} ({os.path.basename(path)})")
    return 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--check", action="store_true", help="compare with the checked-in .inc")
    c = sub.add_parser("check")
    c.add_argument("csv", nargs="+")
    c.add_argument("--tolerance", type=float, default=0.01)
    args = p.parse_args()
    try:
        if args.cmd == "generate":
            text = generate()
            if args.check:
                with open(INC_PATH) as f:
                    if f.read() != text:
                        print("kernel_table.inc is stale: run kernels/kernel_table.py generate")
                        return 1
                print("kernel_table.inc matches kernel_table.csv")
                return 0
            with open(INC_PATH, "w") as f:
                f.write(text)
            print(f"wrote {INC_PATH}")
            return 0
        return check_bench(args.csv, args.tolerance)
    except TableError as e:
        print(f"kernel_table.csv: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
