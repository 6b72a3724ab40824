# Decision table of run 37 call 11 (the script of run 36 call 3): per shape, the default against the kernel OLD, five rounds.
# Usage: python3 dec.py table.txt PREFIX OLD   (PREFIX: u8, u16t, u16f; OLD: a candidate name)
import sys,collections,statistics as st
rows=collections.defaultdict(dict)
for l in open(sys.argv[1]):
    f=l.split()
    if len(f)<4: continue
    rows[(f[0],f[1])][f[2]]=[float(x) for x in f[3:]]
prefix=sys.argv[2]; old=sys.argv[3]
for k,v in rows.items():
    if not k[0].startswith(prefix) or 'default' not in v: continue
    d=v['default']; o=v.get(old)
    if not o: continue
    r=[a/b for a,b in zip(d,o)]
    md=st.median(d)
    best=max((st.median(x),n) for n,x in v.items())
    low=sum(1 for x in r if x<0.98)
    print(f"{k[0]:8s} {k[1]:14s} def {md:7.1f} old {st.median(o):7.1f} medratio {st.median(r):.3f} rounds<0.98: {low}  best {best[1][:22]} {best[0]/md:.3f}  rounds {' '.join(f'{x:.2f}' for x in r)}")
