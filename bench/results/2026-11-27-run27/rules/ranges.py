#!/usr/bin/env python3
"""Run 27: thin ranges by the rules of kernels/NOTES.md ("Run 27", round 2), from every measured
short side: run 26 call 5 (its table in NOTES.md; the default then was the kernels after thin),
run 27 call 1 (mod-table.txt; default = nothin outside run 26's limits) and call 2
(held-table.txt: default, thin, nothin). Prints the points per element size and orientation and
the ranges the rule gives. With --all also calls 3-5's points, and for 1- and 2-byte elements
split by whether the wide matrix's rows are on 4 bytes (len x S % 4 == 0; a4 / o4), the input the
next rule needs (run 27 left the alignment to it)."""
import re, sys, collections
here = sys.path[0]
SZ = {'u8': 1, 'u16': 2, 'f32': 4, 'f64': 8, 'c128': 16}
OLD = {'u8': (131, 128), 'u16': (96, 96), 'f32': (16, 48), 'f64': (16, 48), 'c128': (64, 8)}
# run 26 call 5: m -> {type: (rows nothin, rows thin, cols nothin, cols thin)}
C5 = {
 8: {'u8': (.023, .573, .038, .500), 'u16': (.074, .698, .088, .706), 'f32': (.229, .751, .061, .825), 'f64': (.491, .939, .108, .908), 'c128': (.580, .971, .710, .880)},
 16: {'u8': (.046, .603, .075, .555), 'u16': (.145, .728, .170, .758), 'f32': (.427, .771, .115, .849), 'f64': (.812, .957, .205, .952), 'c128': (.960, .982, .996, .948)},
 32: {'u8': (.090, .554, .145, .584), 'u16': (.269, .646, .313, .732), 'f32': (.725, .692, .218, .880), 'f64': (.983, .916, .373, .965), 'c128': (.967, .983, .993, .972)},
 48: {'u8': (.133, .435, .210, .458), 'u16': (.371, .385, .256, .713), 'f32': (.875, .741, .829, .847), 'f64': (.932, .924, .910, .917), 'c128': (.943, .962, .940, .928)},
 64: {'u8': (.174, .554, .271, .584), 'u16': (.494, .645, .549, .731), 'f32': (.982, .689, .985, .876), 'f64': (.959, .910, .983, .963), 'c128': (.952, .975, .989, .966)},
 68: {'u8': (.184, .593, .282, .559), 'u16': (.471, .704, .346, .754), 'f32': (.688, .743, .661, .808), 'f64': (.918, .903, .751, .844), 'c128': (.962, .941, .861, .884)},
 96: {'u8': (.249, .433, .383, .459), 'u16': (.634, .692, .464, .755), 'f32': (.871, .735, .817, .737), 'f64': (.941, .917, .899, .899), 'c128': (.925, .948, .943, .899)},
 128: {'u8': (.392, .550, .485, .584), 'u16': (.979, .642, .966, .734), 'f32': (.970, .686, .982, .873), 'f64': (.955, .912, .982, .961), 'c128': (.949, .979, .988, .967)},
 131: {'u8': (.324, .419, .466, .447), 'u16': (.444, .377, .572, .566), 'f32': (.748, .728, .708, .643), 'f64': (.928, .867, .820, .633), 'c128': (.960, .929, .871, .874)},
 192: {'u8': (.536, .435, .648, .458), 'u16': (.763, .386, .728, .529), 'f32': (.916, .723, .928, .621), 'f64': (.923, .833, .930, .612), 'c128': (.914, .941, .930, .913)},
 256: {'u8': (.965, .547, .945, .583), 'u16': (.976, .634, .941, .720), 'f32': (.961, .676, .973, .853), 'f64': (.949, .860, .981, .916), 'c128': (.942, .958, .983, .922)},
}
pts = collections.defaultdict(list)  # (type, 'rows'|'cols') -> [(m, n, nothin, thin, source)]
for m, d in C5.items():
    for t, (rn, rt, cn, ct) in d.items():
        n = 536870912 // (m * SZ[t])
        pts[t, 'rows'].append((m, n, rn, rt, 'r26c5'))
        pts[t, 'cols'].append((m, n, cn, ct, 'r26c5'))
def shape(s):
    r, c = map(int, s.split('x'))
    return ('rows', r, c) if r <= c else ('cols', c, r)
for line in open(f'{here}/../call1/logs/mod-table.txt'):
    f = line.split()
    if len(f) < 6 or f[2] != 'default': continue
    t, (o, m, n) = f[0], shape(f[1])
    if m <= OLD[t][0 if o == 'rows' else 1]: continue  # default was thin: no nothin figure
    pts[t, o].append((m, n, float(f[3]), float(f[5]), 'r27c1'))
CALLS = [2] + ([3, 4, 5] if '--all' in sys.argv else [])
for call in CALLS:
    for line in open(f'{here}/../call{call}/logs/held-table.txt'):
        f = line.split()
        if len(f) < 8 or f[2] != 'default' or f[5] == '-': continue
        t, (o, m, n) = f[0], shape(f[1])
        pts[t, o].append((m, n, float(f[7]), float(f[5]), f'r27c{call}'))
def cls(nothin, thin):
    return 'thin' if thin >= 1.03 * nothin else 'tiles' if nothin >= 1.03 * thin else 'level'
out = {}
split = '--all' in sys.argv
for t in SZ:
  for o in ('rows', 'cols'):
    for al in ((True, False) if split and SZ[t] < 4 else (None,)):
        by_m = collections.defaultdict(list)
        for m, n, a, b, src in pts[t, o]:
            if al is None or (n * SZ[t] % 4 == 0) == al: by_m[m].append(cls(a, b))
        if not by_m: continue
        ms = sorted(by_m)
        # a short side is 'tiles' if any measured long side says so, 'thin' if all say thin
        c = {m: 'tiles' if 'tiles' in by_m[m] else 'thin' if all(x == 'thin' for x in by_m[m]) else 'level' for m in ms}
        ranges, run = [], []
        for m in ms:
            if c[m] == 'tiles':
                if run: ranges.append(run)
                run = []
            else: run.append(m)
        if run: ranges.append(run)
        rs = []
        for r in ranges:  # trimmed to 'thin' ends
            th = [m for m in r if c[m] == 'thin']
            if th: rs.append((th[0], th[-1]))
        if rs and rs[0][0] <= 8: rs[0] = (1, rs[0][1])  # thin below the first measured m (run 26)
        out[t, o, al] = rs
        tag = '' if al is None else ' a4' if al else ' o4'
        print(f"{t:5s} {o}{tag}: " + ' '.join(f"{m}{'+' if c[m]=='thin' else '-' if c[m]=='tiles' else '='}" for m in ms))
        print(f"      ranges: {rs}")
