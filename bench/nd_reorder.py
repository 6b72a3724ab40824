#!/usr/bin/env python3
"""Axis reorders of netCDF-4 variables: xpose beside what users run today, in one run.

Case "3d": a 1 GiB float32 variable tas(time=64, lat=2048, lon=2048) with its coordinate
variables, reordered to (lat, lon, time) by
    cp of the file (the ceiling: the same bytes read and written, in order),
    xpose transpose in.nc:/tas out.nc:/tas --axes lat,lon,time (NP ranks, --host-mem),
    NCO ncpdq -a lat,lon,time, xarray in memory, xarray + dask (chunks time=8).
Case "4d": a 1 GiB float32 (16, 64, 512, 512) array, axes (2, 3, 1, 0), xpose against cp.

Every time includes making the output durable (fsync of the output file once the tool exits),
because xpose syncs what it writes before it reports success and the others do not; the bare
times are printed too. Peak RSS is per process (/usr/bin/time), for xpose per rank. The xpose
outputs are verified on every element against the input (numpy, in bands); ncpdq's and xarray's
on a sample. Ratios are against `cp` measured in the same run; the figures are medians over
--reps runs. Needs netCDF4-python, numpy, NCO, xarray and dask (bench only: apt-get install nco
python3-netcdf4 python3-xarray python3-dask).

    bench/nd_reorder.py --xpose build/bin/xpose --dir /tmp/ndbench --np 2 --host-mem 64MiB --reps 3
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def fsync_file(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def drop(path):
    if os.path.exists(path):
        os.remove(path)


def timed(cmd, out, env=None, rss_files=()):
    """Runs cmd; returns (seconds without sync, seconds with the output synced, peak RSS MiB)."""
    for f in rss_files:
        drop(f)
    rss_file = tempfile.mktemp(prefix="rss-")
    full = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + cmd if not rss_files else cmd
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(full, capture_output=True, text=True, env=env, timeout=300)
    except subprocess.TimeoutExpired:  # xarray + dask has been seen to hang in to_netcdf (1 run in 4)
        print(f"  no result within 300 s, not counted: {' '.join(cmd)}", flush=True)
        return None
    t1 = time.perf_counter()
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}")
    fsync_file(out)
    t2 = time.perf_counter()
    files = rss_files or [rss_file]
    rss = max(int(open(f).read().split()[-1]) for f in files) / 1024.0
    for f in files:
        drop(f)
    return t1 - t0, t2 - t0, rss, proc


def make_3d(path, shape):
    try:
        import netCDF4
    except ImportError:  # a machine without netCDF4-python: the same layout through h5py
        return make_3d_h5py(path, shape)
    rng = np.random.default_rng(64)
    with netCDF4.Dataset(path, "w") as f:
        for name, n in zip(("time", "lat", "lon"), shape):
            f.createDimension(name, n)
        t = f.createVariable("time", "f8", ("time",))
        t.units = "days since 2000-01-01"
        lat = f.createVariable("lat", "f4", ("lat",))
        lat.units = "degrees_north"
        lon = f.createVariable("lon", "f4", ("lon",))
        lon.units = "degrees_east"
        v = f.createVariable("tas", "f4", ("time", "lat", "lon"), contiguous=True)
        v.units = "K"
        t[:] = np.arange(shape[0])
        lat[:] = np.linspace(-90, 90, shape[1])
        lon[:] = np.linspace(0, 360, shape[2], endpoint=False)
        for k in range(0, shape[0], 8):
            v[k:k + 8] = rng.standard_normal((min(8, shape[0] - k),) + shape[1:], dtype=np.float32) + 280
        f.title = "xpose benchmark"


def make_3d_h5py(path, shape):
    """tas(time, lat, lon) with dimension scales, as netCDF-4 stores it, written by h5py."""
    import h5py
    rng = np.random.default_rng(64)
    with h5py.File(path, "w") as f:
        for name, n in zip(("time", "lat", "lon"), shape):
            f.create_dataset(name, data=np.arange(n, dtype="f8" if name == "time" else "f4"))
            f[name].make_scale(name)
        v = f.create_dataset("tas", shape=shape, dtype="<f4")
        for k, name in enumerate(("time", "lat", "lon")):
            v.dims[k].attach_scale(f[name])
        for k in range(0, shape[0], 8):
            v[k:k + 8] = rng.standard_normal((min(8, shape[0] - k),) + shape[1:], dtype=np.float32) + 280


def make_4d(path, shape):
    import h5py
    rng = np.random.default_rng(4)
    with h5py.File(path, "w") as f:
        d = f.create_dataset("data", shape=shape, dtype="<f4")
        for k in range(shape[0]):
            d[k] = rng.standard_normal(shape[1:], dtype=np.float32)


def verify_bands(in_path, in_var, out_path, out_var, axes, sample=None):
    """out == numpy.transpose(in, axes), in bands of the output's first axis (every element), or
    on `sample` random bands."""
    import h5py
    with h5py.File(in_path, "r") as fi, h5py.File(out_path, "r") as fo:
        a, b = fi[in_var], fo[out_var]
        assert b.shape == tuple(a.shape[k] for k in axes), f"{out_path}: shape {b.shape}"
        first = axes[0]
        n = b.shape[0]
        step = max(1, (64 << 20) // (a.size // a.shape[first] * a.dtype.itemsize))
        starts = list(range(0, n, step))
        if sample:
            starts = sorted(np.random.default_rng(1).choice(starts, size=min(sample, len(starts)), replace=False))
        for s in starts:
            e = min(n, s + step)
            sel = [slice(None)] * a.ndim
            sel[first] = slice(s, e)
            ref = np.transpose(a[tuple(sel)], axes)
            if not np.array_equal(ref, b[s:e]):
                raise SystemExit(f"{out_path}: band {s}:{e} differs from numpy.transpose(axes={axes})")


def median(xs):
    return statistics.median(xs)


def report(title, rows, ceiling="cp"):
    base = median(rows[ceiling]["synced"])
    print(f"\n{title}")
    print(f"| tool | seconds (synced) | x cp | seconds (bare) | peak RSS MiB |")
    print(f"|---|---|---|---|---|")
    for name, r in rows.items():
        if not r["synced"]:
            print(f"| {name} | no result ({r.get('hung', 0)} hung) | | | |")
            continue
        s = median(r["synced"])
        hung = f" ({r['hung']} more run(s) hung)" if r.get("hung") else ""
        print(f"| {name} | {s:.2f}{hung} | {s / base:.2f} | {median(r['bare']):.2f} | {max(r['rss']):.0f} |")
    return base


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--xpose", required=True)
    p.add_argument("--dir", default=None, help="work directory (default: a new one under /tmp)")
    p.add_argument("--np", type=int, default=2)
    p.add_argument("--host-mem", default="64MiB", help="xpose's --host-mem; '' for its default")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--case", choices=["3d", "4d", "all"], default="all")
    p.add_argument("--skip-slow", action="store_true", help="time ncpdq and xarray once, not --reps times")
    p.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    p.add_argument("--extra", default="", help="more xpose options, e.g. '--gpu-mem 8GiB'")
    p.add_argument("--backends", default="cpu", help="xpose backends, each a row: cpu, cuda or cpu,cuda")
    p.add_argument("--tools", default="cp,ncpdq,xarray,xarray+dask",
                   help="the other tools of the 3-D case (cp is always run)")
    p.add_argument("--shape3d", default="64,2048,2048")
    p.add_argument("--shape4d", default="16,64,512,512")
    args = p.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    work = args.dir or tempfile.mkdtemp(prefix="xpose-nd-")
    os.makedirs(work, exist_ok=True)
    hostmem = None
    if args.host_mem:
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
        hm = args.host_mem.rstrip("iB")
        hostmem = int(float(hm[:-1]) * units[hm[-1]]) if hm[-1] in units else int(hm)
    print(f"work directory {work} ({subprocess.run(['df', '-T', work], capture_output=True, text=True).stdout.split()[-6]}),"
          f" {os.cpu_count()} CPUs, {args.np} xpose ranks, --host-mem {args.host_mem}, median of {args.reps}")
    rss_files = [os.path.join(work, f"rss.{r}") for r in range(args.np)]

    backends = args.backends.split(",")

    def xname(b):
        return "xpose" if len(backends) == 1 else f"xpose {b}"

    def xpose_cmd(src, dst, axes, backend):
        inner = " ".join(shlex.quote(x) for x in [args.xpose, "transpose", src, dst, "--axes", axes, "--force",
                                                   "--quiet", "--backend", backend]
                         + (["--host-mem", args.host_mem] if args.host_mem else []) + shlex.split(args.extra))
        return shlex.split(args.mpiexec) + ["-n", str(args.np), "sh", "-c",
                                            f'exec /usr/bin/time -f %M -o {shlex.quote(work)}/rss.$OMPI_COMM_WORLD_RANK '
                                            + inner]

    failures = []
    if args.case in ("3d", "all"):
        shape = tuple(int(x) for x in args.shape3d.split(","))
        src = os.path.join(work, "nd_in.nc")
        if not os.path.exists(src):
            make_3d(src, shape)
        fsync_file(src)
        out = {k: os.path.join(work, f"nd_out_{k}.nc") for k in ["cp", "ncpdq", "xarray", "dask"] + backends}
        tools = {"cp": (["cp", src, out["cp"]], None)}
        for b in backends:
            tools[xname(b)] = (xpose_cmd(f"{src}:/tas", f"{out[b]}:/tas", "lat,lon,time", b), rss_files)
        wanted = args.tools.split(",")
        if "ncpdq" in wanted:
            tools["ncpdq"] = (["ncpdq", "-O", "-a", "lat,lon,time", src, out["ncpdq"]], None)
        if "xarray" in wanted:
            tools["xarray"] = ([PY, "-c", "import sys, xarray as xr; ds = xr.open_dataset(sys.argv[1]).load(); "
                                "ds.transpose('lat', 'lon', 'time').to_netcdf(sys.argv[2])", src, out["xarray"]], None)
        if "xarray+dask" in wanted:
            tools["xarray+dask"] = ([PY, "-c", "import sys, xarray as xr; "
                                     "ds = xr.open_dataset(sys.argv[1], chunks={'time': 8}); "
                                     "ds.transpose('lat', 'lon', 'time').to_netcdf(sys.argv[2])", src, out["dask"]], None)
        target = {"xarray+dask": out["dask"], "ncpdq": out["ncpdq"], "xarray": out["xarray"], "cp": out["cp"]}
        target.update({xname(b): out[b] for b in backends})
        rows = {name: {"bare": [], "synced": [], "rss": []} for name in tools}
        for rep in range(args.reps):
            for name, (cmd, rss) in tools.items():
                if args.skip_slow and rep > 0 and name in ("ncpdq", "xarray", "xarray+dask"):
                    continue
                dst = target[name]
                drop(dst)
                subprocess.run(["sync"])
                result = timed(cmd, dst, rss_files=rss or ())
                if result is None:
                    rows[name]["hung"] = rows[name].get("hung", 0) + 1
                    continue
                bare, synced, peak, _ = result
                rows[name]["bare"].append(bare)
                rows[name]["synced"].append(synced)
                rows[name]["rss"].append(peak)
                print(f"  rep {rep} {name}: {synced:.2f} s synced ({bare:.2f} s bare), peak RSS {peak:.0f} MiB",
                      flush=True)
        for b in backends:
            verify_bands(src, "tas", out[b], "tas", (1, 2, 0))
            if shutil.which("ncdump") is None:
                continue
            header = subprocess.run(["ncdump", "-h", out[b]], capture_output=True, text=True).stdout
            if "float tas(lat, lon, time)" not in header:
                failures.append(f"ncdump does not see tas(lat, lon, time) in the xpose {b} output")
        for name in ("ncpdq", "xarray+dask"):
            if name in tools and rows[name]["synced"]:
                verify_bands(src, "tas", target[name], "tas", (1, 2, 0), sample=4)
        cp = report(f"3-D {shape} float32 ({np.prod(shape) * 4 / 2**30:.2f} GiB) -> (lat, lon, time); "
                    f"xpose outputs verified on every element", rows)
        goals = []
        for b in backends:
            x = median(rows[xname(b)]["synced"])
            goals.append((f"{xname(b)} <= 1.5 x cp", x / cp, x / cp <= 1.5))
            for name, factor in (("xarray+dask", 3), ("ncpdq", 6)):
                if name in rows and rows[name]["synced"]:
                    r = median(rows[name]["synced"]) / x
                    goals.append((f"{name} / {xname(b)} >= {factor}", r, r >= factor))
            if hostmem:
                limit = hostmem / 2**20 + 200
                peak = max(rows[xname(b)]["rss"])
                goals.append((f"{xname(b)} peak RSS per rank <= {limit:.0f} MiB", peak, peak <= limit))
        for name, value, ok in goals:
            print(f"  {name}: {value:.2f} {'met' if ok else 'NOT met'}")
            if not ok:
                failures.append(name)
        for f in out.values():
            drop(f)

    if args.case in ("4d", "all"):
        shape = tuple(int(x) for x in args.shape4d.split(","))
        axes = (2, 3, 1, 0)
        src = os.path.join(work, "nd4_in.h5")
        if not os.path.exists(src):
            make_4d(src, shape)
        fsync_file(src)
        out = {k: os.path.join(work, f"nd4_out_{k}.h5") for k in ["cp"] + backends}
        tools = {"cp": (["cp", src, out["cp"]], None)}
        target = {"cp": out["cp"]}
        for b in backends:
            tools[xname(b)] = (xpose_cmd(f"{src}:/data", f"{out[b]}:/data", ",".join(map(str, axes)), b), rss_files)
            target[xname(b)] = out[b]
        rows = {name: {"bare": [], "synced": [], "rss": []} for name in tools}
        for rep in range(args.reps):
            for name, (cmd, rss) in tools.items():
                drop(target[name])
                subprocess.run(["sync"])
                result = timed(cmd, target[name], rss_files=rss or ())
                if result is None:
                    continue
                bare, synced, peak, _ = result
                rows[name]["bare"].append(bare)
                rows[name]["synced"].append(synced)
                rows[name]["rss"].append(peak)
                print(f"  rep {rep} {name}: {synced:.2f} s synced ({bare:.2f} s bare), peak RSS {peak:.0f} MiB",
                      flush=True)
        for b in backends:
            verify_bands(src, "data", out[b], "data", axes)
        cp = report(f"4-D {shape} float32 -> axes {axes}; xpose output verified on every element", rows)
        for b in backends:
            x = median(rows[xname(b)]["synced"])
            ok = x / cp <= 3
            print(f"  {xname(b)} <= 3 x cp: {x / cp:.2f} {'met' if ok else 'NOT met'}")
            if not ok:
                failures.append(f"4-D {xname(b)} within 3 x cp")
        for f in out.values():
            drop(f)
    if failures:
        print("goals not met: " + "; ".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
