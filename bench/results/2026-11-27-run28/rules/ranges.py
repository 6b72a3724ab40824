#!/usr/bin/env python3
"""Run 28: thin ranges by round 3's rule (kernels/NOTES.md, "Run 28", call 1 plan). Every point
of run 26 call 5, run 27 calls 1-5 (read by run 27's rules/ranges.py) and run 28's held tables
(call 1, and with --held also call 2); 1- and 2-byte elements per class of the wide matrix's rows
(a4: on 4 bytes, o4: off them). A point is thin (thin >= 1.03 x nothin), tiles (nothin >= 1.03 x
thin) or level; one tiles point makes its m tiles; ranges are the maximal runs of measured m
without a tiles point, trimmed to thin points at both ends. Run 27's final ranges stay as a floor
where no tiles point of the class lies inside them; single-m ranges only for f32 / f64 / c128.
Prints the points and the ranges, and with --check [CALL...] the held-out verdict of those calls
(default call 2); --held adds those calls' points to the ranges."""
import collections, os, sys
here = sys.path[0]
r27 = os.path.join(here, '../../2026-11-27-run27/rules')
sys.argv_saved = sys.argv
sys.argv = ['ranges.py', '--all']
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    sys.path.insert(0, r27)
    import ranges as R27  # run 27's points (pts) and helpers
sys.argv = sys.argv_saved
SZ, pts, shape, cls = R27.SZ, R27.pts, R27.shape, R27.cls
FINAL27 = {  # run 27's ranges, per (type, orientation, class); None = any class
    ('u8', 'rows'): [(1, 138), (236, 244)], ('u8', 'cols'): [(1, 128)],
    ('u16', 'rows', True): [(1, 96)], ('u16', 'rows', False): [(1, 60)], ('u16', 'cols'): [(1, 116)],
    ('f32', 'rows'): [(1, 31), (33, 34), (66, 74)], ('f32', 'cols'): [(1, 48), (66, 74), (240, 240)],
    ('f64', 'rows'): [(1, 22), (31, 31), (33, 42), (66, 66)], ('f64', 'cols'): [(1, 48), (66, 80), (200, 200)],
    ('c128', 'rows'): [(1, 64), (128, 128)],
    ('c128', 'cols'): [(1, 8), (18, 20), (33, 42), (98, 100)],
}
def final27(t, o, al):
    return FINAL27.get((t, o, al), FINAL27.get((t, o)))
def held(path, tag):
    out = []
    for line in open(path):
        f = line.split()
        if len(f) < 8 or f[2] != 'default' or f[5] == '-': continue
        t, (o, m, n) = f[0], shape(f[1])
        out.append((t, o, m, n, float(f[7]), float(f[5]), tag))
    return out
base = os.path.join(here, '..')
new = held(f'{base}/call1/logs/held-table.txt', 'r28c1')
# --check C... : the held-out tables of run 28 calls C (default 2)
calls = [a for a in sys.argv[1:] if a.isdigit()] or ['2']
check = [x for c in calls for x in held(f'{base}/call{c}/logs/held-table.txt', f'r28c{c}')]
for t, o, m, n, a, b, src in new + (check if '--held' in sys.argv else []):
    pts[t, o].append((m, n, a, b, src))
def ranges_of(t, o, al):
    by_m = collections.defaultdict(list)
    for m, n, a, b, src in pts[t, o]:
        if al is None or (n * SZ[t] % 4 == 0) == al: by_m[m].append(cls(a, b))
    ms = sorted(by_m)
    c = {m: 'tiles' if 'tiles' in by_m[m] else 'thin' if all(x == 'thin' for x in by_m[m]) else 'level' for m in ms}
    runs, run = [], []
    for m in ms:
        if c[m] == 'tiles':
            if run: runs.append(run)
            run = []
        else: run.append(m)
    if run: runs.append(run)
    rs = []
    for r in runs:
        th = [m for m in r if c[m] == 'thin']
        if th: rs.append((th[0], th[-1]))
    if rs and rs[0][0] <= 8: rs[0] = (1, rs[0][1])
    if SZ[t] < 4: rs = [r for r in rs if r[0] < r[1]]  # no single points for u8 / u16
    tiles = [m for m in ms if c[m] == 'tiles']
    floors = [f for f in final27(t, o, al) if not any(f[0] <= m <= f[1] for m in tiles)]
    merged = []
    for lo, hi in sorted(rs + floors):
        if merged and lo <= merged[-1][1] + 1: merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else: merged.append((lo, hi))
    return ms, c, merged
result = {}
for t in SZ:
    for o in ('rows', 'cols'):
        for al in ((True, False) if SZ[t] < 4 else (None,)):
            ms, c, rs = ranges_of(t, o, al)
            result[t, o, al] = rs
            tag = '' if al is None else ' a4' if al else ' o4'
            print(f"{t:5s} {o}{tag}: " + ' '.join(f"{m}{'+' if c[m]=='thin' else '-' if c[m]=='tiles' else '='}" for m in ms))
            print(f"      ranges: {rs}   (run 27: {final27(t, o, al)})")
if '--check' in sys.argv:
    print('\nheld-out check (call 2): m inside a round-3 range where thin is > 3 % behind nothin')
    bad = 0
    for t, o, m, n, a, b, src in check:
        al = None if SZ[t] >= 4 else n * SZ[t] % 4 == 0
        inside = any(lo <= m <= hi for lo, hi in result[t, o, al])
        verdict = 'FAIL' if inside and b < 0.97 * a else ''
        bad += verdict == 'FAIL'
        print(f"  {t:5s} {o} {'' if al is None else 'a4' if al else 'o4'} m={m:4d} n={n:8d} "
              f"{'inside ' if inside else 'outside'} thin {b:.3f} nothin {a:.3f} {verdict}")
    print(f"failures inside: {bad}")
