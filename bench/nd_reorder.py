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
    proc = subprocess.run(full, capture_output=True, text=True, env=env)
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
    import netCDF4
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
        s = median(r["synced"])
        print(f"| {name} | {s:.2f} | {s / base:.2f} | {median(r['bare']):.2f} | {max(r['rss']):.0f} |")
    return base


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--xpose", required=True)
    p.add_argument("--dir", default=None, help="work directory (default: a new one under /tmp)")
    p.add_argument("--np", type=int, default=2)
    p.add_argument("--host-mem", default="64MiB")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--case", choices=["3d", "4d", "all"], default="all")
    p.add_argument("--skip-slow", action="store_true", help="time ncpdq and xarray once, not --reps times")
    p.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    p.add_argument("--extra", default="", help="more xpose options, e.g. '--backend cuda'")
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

    def xpose_cmd(src, dst, axes):
        inner = " ".join(shlex.quote(x) for x in [args.xpose, "transpose", src, dst, "--axes", axes, "--force",
                                                   "--quiet"] + (["--host-mem", args.host_mem] if args.host_mem else [])
                         + shlex.split(args.extra))
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
        out = {k: os.path.join(work, f"nd_out_{k}.nc") for k in ("cp", "xpose", "ncpdq", "xarray", "dask")}
        tools = {
            "cp": (["cp", src, out["cp"]], None),
            "xpose": (xpose_cmd(f"{src}:/tas", f"{out['xpose']}:/tas", "lat,lon,time"), rss_files),
            "ncpdq": (["ncpdq", "-O", "-a", "lat,lon,time", src, out["ncpdq"]], None),
            "xarray": ([PY, "-c", "import sys, xarray as xr; ds = xr.open_dataset(sys.argv[1]).load(); "
                        "ds.transpose('lat', 'lon', 'time').to_netcdf(sys.argv[2])", src, out["xarray"]], None),
            "xarray+dask": ([PY, "-c", "import sys, xarray as xr; ds = xr.open_dataset(sys.argv[1], chunks={'time': 8}); "
                             "ds.transpose('lat', 'lon', 'time').to_netcdf(sys.argv[2])", src, out["dask"]], None),
        }
        rows = {name: {"bare": [], "synced": [], "rss": []} for name in tools}
        for rep in range(args.reps):
            for name, (cmd, rss) in tools.items():
                if args.skip_slow and rep > 0 and name in ("ncpdq", "xarray", "xarray+dask"):
                    continue
                dst = out["dask" if name == "xarray+dask" else name]
                drop(dst)
                subprocess.run(["sync"])
                bare, synced, peak, _ = timed(cmd, dst, rss_files=rss or ())
                rows[name]["bare"].append(bare)
                rows[name]["synced"].append(synced)
                rows[name]["rss"].append(peak)
                print(f"  rep {rep} {name}: {synced:.2f} s synced ({bare:.2f} s bare), peak RSS {peak:.0f} MiB",
                      flush=True)
        verify_bands(src, "tas", out["xpose"], "tas", (1, 2, 0))
        verify_bands(src, "tas", out["ncpdq"], "tas", (1, 2, 0), sample=4)
        verify_bands(src, "tas", out["dask"], "tas", (1, 2, 0), sample=4)
        header = subprocess.run(["ncdump", "-h", out["xpose"]], capture_output=True, text=True).stdout
        if "float tas(lat, lon, time)" not in header:
            failures.append("ncdump does not see tas(lat, lon, time) in the xpose output")
        cp = report(f"3-D {shape} float32 ({np.prod(shape) * 4 / 2**30:.2f} GiB) -> (lat, lon, time); "
                    f"xpose outputs verified on every element", rows)
        x = median(rows["xpose"]["synced"])
        goals = [("xpose <= 1.5 x cp", x / cp, x / cp <= 1.5),
                 ("xarray+dask / xpose >= 3", median(rows["xarray+dask"]["synced"]) / x,
                  median(rows["xarray+dask"]["synced"]) / x >= 3),
                 ("ncpdq / xpose >= 6", median(rows["ncpdq"]["synced"]) / x, median(rows["ncpdq"]["synced"]) / x >= 6)]
        if hostmem:
            limit = hostmem / 2**20 + 200
            goals.append((f"xpose peak RSS per rank <= {limit:.0f} MiB", max(rows["xpose"]["rss"]),
                          max(rows["xpose"]["rss"]) <= limit))
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
        out = {k: os.path.join(work, f"nd4_out_{k}.h5") for k in ("cp", "xpose")}
        tools = {"cp": (["cp", src, out["cp"]], None),
                 "xpose": (xpose_cmd(f"{src}:/data", f"{out['xpose']}:/data", ",".join(map(str, axes))), rss_files)}
        rows = {name: {"bare": [], "synced": [], "rss": []} for name in tools}
        for rep in range(args.reps):
            for name, (cmd, rss) in tools.items():
                drop(out[name])
                subprocess.run(["sync"])
                bare, synced, peak, _ = timed(cmd, out[name], rss_files=rss or ())
                rows[name]["bare"].append(bare)
                rows[name]["synced"].append(synced)
                rows[name]["rss"].append(peak)
                print(f"  rep {rep} {name}: {synced:.2f} s synced ({bare:.2f} s bare), peak RSS {peak:.0f} MiB",
                      flush=True)
        verify_bands(src, "data", out["xpose"], "data", axes)
        cp = report(f"4-D {shape} float32 -> axes {axes}; xpose output verified on every element", rows)
        x = median(rows["xpose"]["synced"])
        ok = x / cp <= 3
        print(f"  xpose <= 3 x cp: {x / cp:.2f} {'met' if ok else 'NOT met'}")
        if not ok:
            failures.append("4-D within 3 x cp")
        for f in out.values():
            drop(f)
    if failures:
        print("goals not met: " + "; ".join(failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
