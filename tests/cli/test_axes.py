#!/usr/bin/env python3
"""End-to-end tests of `xpose transpose --axes` (any axis order) and of netCDF-4 files.

Inputs are written with h5py or netCDF4-python; every output is compared with numpy.transpose of
the input, byte for byte, and netCDF-4 outputs are read back with netCDF4-python and ncdump. The
permutations, shapes, element sizes and layouts are drawn from a seeded generator, so a failure
names a case that reproduces.

    test_axes.py --xpose build/bin/xpose --np 3 --group permutations [--mpiexec "mpiexec --oversubscribe"]
"""
import argparse
import itertools
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

OK, USAGE, NOT_FOUND, UNREADABLE, UNSUPPORTED, OUTPUT_REFUSED, IO_FAILURE, MISMATCH, RESOURCES = 0, 2, 3, 4, 5, 6, 7, 8, 9
RESUME_REFUSED, INTERRUPTED = 11, 75

ARGS = None


def run(*xpose_args, np_=None, expect=OK, env=None):
    """Runs xpose under mpiexec; checks the exit code; returns the CompletedProcess."""
    nprocs = np_ if np_ is not None else ARGS.np
    extra = shlex.split(ARGS.extra) if xpose_args and xpose_args[0] == "transpose" else []
    cmd = shlex.split(ARGS.mpiexec) + ["-n", str(nprocs), ARGS.xpose] + [str(a) for a in xpose_args] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    if expect is not None and proc.returncode != expect:
        raise AssertionError(
            f"{' '.join(cmd)}\n  exit {proc.returncode}, expected {expect}\n  stdout: {proc.stdout.strip()}\n"
            f"  stderr: {proc.stderr.strip()}")
    return proc


def check(cond, message):
    if not cond:
        raise AssertionError(message)


def pattern(shape, dtype, rng):
    """Random bytes of any dtype, finite where it is a float, so misplaced elements show."""
    n = int(np.prod(shape))
    raw = rng.integers(0, 256, size=n * np.dtype(dtype).itemsize, dtype=np.uint8)
    a = raw.view(dtype).reshape(shape).copy()
    if np.dtype(dtype).kind in "fc":
        a = np.nan_to_num(a, nan=1.5, posinf=2.5, neginf=-2.5)
    return a


def expect_permuted(data, out_path, axes, dset="/data"):
    """The output dataset is numpy.transpose(data, axes), byte for byte, with data's dtype."""
    with h5py.File(out_path, "r") as f:
        got = f[dset][()]
    ref = np.ascontiguousarray(np.transpose(data, axes))
    check(got.shape == ref.shape, f"{out_path}: shape {got.shape}, numpy.transpose gives {ref.shape} (axes {axes})")
    check(got.dtype == data.dtype, f"{out_path}: dtype {got.dtype}, input {data.dtype}")
    if ref.tobytes() != got.tobytes():
        bad = np.argwhere(ref != got) if ref.dtype.names is None else np.argwhere(ref.view(np.uint8) != got.view(np.uint8))
        raise AssertionError(f"{out_path} ({data.dtype}, {data.shape} -> axes {axes}): {len(bad)} elements differ; "
                             f"first at {tuple(bad[0])}")


def no_leftovers(directory, allowed):
    extra = sorted(set(os.listdir(directory)) - set(allowed))
    check(not extra, f"files left behind in {directory}: {extra}")


def random_shape(rng, rank, max_elems=6000):
    """Extents 1..9 with some 1-long axes and some larger, uneven ones, within max_elems."""
    while True:
        shape = [int(rng.choice([1, 2, 3, 5, 7, 9, 13, 17])) for _ in range(rank)]
        if rng.random() < 0.5:
            shape[int(rng.integers(rank))] = int(rng.integers(20, 70))
        if int(np.prod(shape)) <= max_elems:
            return tuple(shape)


# ---------------------------------------------------------------------------------------------
# Groups of cases


def group_permutations(tmp):
    """Random axis orders of ranks 2-5 (1-long and uneven axes), every element size, contiguous,
    chunked and compressed inputs, axes by number (negative too)."""
    rng = np.random.default_rng(50 + ARGS.np)
    dtypes = ["<u1", ">i2", "<f4", ">f8", "<c8", "<c16"]
    layouts = [None, "chunked", "gzip"]
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    for case in range(14):
        rank = 2 + case % 4
        shape = random_shape(rng, rank)
        axes = [int(a) for a in rng.permutation(rank)]
        dtype = np.dtype(dtypes[case % len(dtypes)])
        layout = layouts[(case // 2) % len(layouts)]
        data = pattern(shape, dtype, rng)
        chunks = tuple(max(1, (e + 1) // 2) for e in shape) if layout else None
        with h5py.File(src, "w") as f:
            f.create_dataset("/data", data=data, chunks=chunks, compression="gzip" if layout == "gzip" else None)
        spec = [a - rank if rng.random() < 0.2 else a for a in axes]  # NumPy's negative axes
        run("transpose", f"{src}:/data", f"{dst}:/data", "--axes", ",".join(map(str, spec)), "--quiet")
        try:
            expect_permuted(data, dst, axes)
        except AssertionError as e:
            raise AssertionError(f"case {case}, layout {layout}: {e}")
        os.remove(dst)
        no_leftovers(tmp, ["in.h5"])


def group_orders(tmp):
    """Every axis order of a 4-D array (each one pass: rows, columns, batch and wide elements in
    every arrangement), out of core with stages of a few columns."""
    rng = np.random.default_rng(7)
    shape = (3, 1, 5, 4) if ARGS.np > 2 else (3, 2, 5, 4)
    data = pattern(shape, np.dtype("<i4"), rng)
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    # Contiguous (the mapped path: the transpose reads and writes the files' pages) and chunked
    # (hyperslabs into packed stage buffers) in turn.
    with h5py.File(src, "w") as f:
        f.create_dataset("/data", data=data)
        f.create_dataset("/chunked", data=data, chunks=(2, 1, 3, 2))
    orders = list(itertools.permutations(range(4)))
    # Every order at one rank count would take long; each rank count takes its share.
    for k, axes in enumerate(orders):
        if k % 4 != ARGS.np % 4 and ARGS.np <= 4:
            continue
        run("transpose", f"{src}:{'/chunked' if k % 8 >= 4 else '/data'}", f"{dst}:/data", "--axes",
            ",".join(map(str, axes)), "--max-stage-width", "2", "--quiet")
        expect_permuted(data, dst, list(axes))
        os.remove(dst)


def group_wide(tmp):
    """Orders that keep trailing axes together move wide elements (3 x 8 = 24, 5 x 4 = 20,
    7 x 16 = 112 bytes, 96 x 4 = 384): the kernels' element-copy path, streaming included."""
    rng = np.random.default_rng(11)
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    for shape, dtype, axes, extra in [((19, 23, 3), "<f8", [1, 0, 2], []),
                                      ((6, 11, 13, 5), "<f4", [2, 0, 1, 3], ["--max-stage-width", "3"]),
                                      ((4, 9, 7), "<c16", [1, 0, 2], ["--io", "independent"]),
                                      ((2, 17, 5, 96), "<f4", [0, 2, 1, 3], ["--host-mem", "512KiB"])]:
        data = pattern(shape, np.dtype(dtype), rng)
        with h5py.File(src, "w") as f:
            f.create_dataset("/data", data=data)
        run("transpose", f"{src}:/data", f"{dst}:/data", "--axes", ",".join(map(str, axes)), "--quiet", *extra)
        expect_permuted(data, dst, axes)
        os.remove(dst)


def group_axes_errors(tmp):
    """Bad --axes lists are usage errors (exit 2), decided before any output exists; rank 9 is
    unsupported (exit 5); without --axes nothing changes."""
    rng = np.random.default_rng(3)
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    data = pattern((4, 5, 6), np.dtype("<f4"), rng)
    with h5py.File(src, "w") as f:
        f.create_dataset("/data", data=data)
    for bad in ["0,1", "0,1,-4", "a,1,2", "lat,lon,time"]:  # the rest: tests/unit/test_axes.cpp
        proc = run("transpose", f"{src}:/data", f"{dst}:/data", "--axes", bad, expect=USAGE)
        check("axes" in proc.stderr or "dimension" in proc.stderr, f"--axes {bad}: {proc.stderr}")
        no_leftovers(tmp, ["in.h5"])
    with h5py.File(src, "w") as f:
        f.create_dataset("/data", data=np.zeros((2,) * 9, np.uint8))
    run("transpose", f"{src}:/data", f"{dst}:/data", "--axes", "8,7,6,5,4,3,2,1,0", expect=UNSUPPORTED)
    no_leftovers(tmp, ["in.h5"])
    # The default order and its explicit form write the same bytes.
    with h5py.File(src, "w") as f:
        f.create_dataset("/data", data=data)
    run("transpose", f"{src}:/data", f"{dst}:/data", "--quiet")
    run("transpose", f"{src}:/data", f"{dst}.2:/data", "--axes", "0,2,1", "--quiet")
    expect_permuted(data, dst, [0, 2, 1])
    expect_permuted(data, dst + ".2", [0, 2, 1])
    proc = run("plan", f"{src}:/data", f"{dst}.3:/data", "--axes", "2,0,1")
    check("2,0,1" in proc.stdout and "pass" in proc.stdout, f"plan does not show the order:\n{proc.stdout}")


def group_resume(tmp):
    """An axis order stopped by SIGTERM after a stage resumes to the same bytes; a resume with
    another order is refused."""
    rng = np.random.default_rng(5)
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    data = pattern((30, 30, 30), np.dtype("<f4"), rng)
    with h5py.File(src, "w") as f:
        f.create_dataset("/data", data=data)
    env = dict(os.environ, XPOSE_TEST_SIGNAL_AT_STAGE="1:15")  # 3 stages at 4 ranks
    args = ["transpose", f"{src}:/data", f"{dst}:/data", "--axes", "2,0,1", "--max-stage-width", "3", "--quiet"]
    run(*args, expect=INTERRUPTED, env=env)
    check(not os.path.exists(dst), "a stopped run left a final output")
    proc = run("transpose", f"{src}:/data", f"{dst}:/data", "--axes", "1,2,0", "--max-stage-width", "3", "--resume",
               expect=RESUME_REFUSED)
    check("axis order" in proc.stderr, f"the refusal names the axis order: {proc.stderr}")
    run(*args, "--resume")
    expect_permuted(data, dst, [2, 0, 1])
    no_leftovers(tmp, ["in.h5", "out.h5"])


def group_compress(tmp):
    """--compress gzip[:LEVEL] with shuffle, in the same pass: chunks picked or given, stages that
    cut through chunks, several ranks writing one compressed dataset."""
    rng = np.random.default_rng(9)
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    data = (np.arange(7 * 30 * 50, dtype=np.float32).reshape(7, 30, 50) % 97).astype(np.float32)
    with h5py.File(src, "w") as f:
        f.create_dataset("/data", data=data)
    for extra, level in [(["--compress", "gzip"], 4), (["--compress", "gzip:9", "--chunk", "8x5x3"], 9),
                         (["--compress", "gzip:1", "--max-stage-width", "3"], 1)]:
        run("transpose", f"{src}:/data", f"{dst}:/data", "--axes", "2,0,1", "--quiet", *extra)
        expect_permuted(data, dst, [2, 0, 1])
        with h5py.File(dst, "r") as f:
            d = f["/data"]
            check(d.compression == "gzip" and d.compression_opts == level and d.shuffle,
                  f"{extra}: compression {d.compression} {d.compression_opts} shuffle {d.shuffle}")
            check(d.id.get_storage_size() < data.nbytes / 2, f"{extra}: {d.id.get_storage_size()} bytes stored")
            if "--chunk" in extra:
                check(d.chunks == (8, 5, 3), f"chunks {d.chunks}")
        os.remove(dst)
    run("transpose", f"{src}:/data", f"{dst}:/data", "--compress", "zstd", expect=USAGE)
    no_leftovers(tmp, ["in.h5"])


def make_netcdf(path, rng, shape=(6, 5, 7), unlimited=True, compress=False):
    """A netCDF-4 file as climate data has it: tas(time, lat, lon) with coordinate variables
    time (unlimited) and lat, a dimension without one (lon), and packing attributes."""
    import netCDF4
    data = rng.standard_normal(shape).astype(np.float32)
    with netCDF4.Dataset(path, "w") as f:
        f.createDimension("time", None if unlimited else shape[0])
        f.createDimension("lat", shape[1])
        f.createDimension("lon", shape[2])
        f.createDimension("nv", 2)
        t = f.createVariable("time", "f8", ("time",))
        t.units = "days since 2000-01-01"
        t.calendar = "standard"
        lat = f.createVariable("lat", "f4", ("lat",))
        lat.units = "degrees_north"
        v = f.createVariable("tas", "f4", ("time", "lat", "lon"), fill_value=np.float32(-999.0), zlib=compress)
        v.units = "K"
        v.scale_factor = np.float32(1.0)
        v.long_name = "near-surface air temperature"
        bnds = f.createVariable("lat_bnds", "f8", ("lat", "nv"))
        f.title = "xpose netCDF-4 test"
        t[:] = np.arange(shape[0]) * 1.5
        lat[:] = np.linspace(-80, 80, shape[1])
        bnds[:] = np.stack([np.arange(shape[1]), np.arange(shape[1]) + 1], axis=1)
        v.set_auto_maskandscale(False)
        v[:] = data
    return data


def read_netcdf(path, var):
    import netCDF4
    with netCDF4.Dataset(path, "r") as f:
        v = f[var]
        v.set_auto_maskandscale(False)
        return (tuple(v.dimensions), v[:].data if hasattr(v[:], "data") else v[:],
                {k: v.getncattr(k) for k in v.ncattrs()},
                {name: (len(d), d.isunlimited()) for name, d in f.dimensions.items()},
                {name: f[name][:] for name in f.variables if f[name].ndim == 1},
                {k: f.getncattr(k) for k in f.ncattrs()})


def group_netcdf(tmp):
    """netCDF-4 in, netCDF-4 out: --axes by dimension name; netCDF4-python and ncdump see the
    variable with its dimensions in the new order, its coordinate variables and attributes, and
    its values permuted; contiguous and compressed inputs."""
    rng = np.random.default_rng(21)
    src, dst = os.path.join(tmp, "in.nc"), os.path.join(tmp, "out.nc")
    for order, unlimited, compress in [(["lat", "lon", "time"], True, False), (["lon", "time", "lat"], False, False),
                                       (["lon", "lat"], False, True), (["time", "lon", "lat"], True, True)]:
        data = make_netcdf(src, rng, unlimited=unlimited, compress=compress)
        dims_in = ["time", "lat", "lon"]
        run("transpose", f"{src}:/tas", f"{dst}:/tas", "--axes", ",".join(order), "--quiet")
        # Names given for some dimensions reorder just those (as ncpdq -a does).
        named = [d for d in dims_in if d in order]
        it = iter(order)
        new_dims = [next(it) if d in named else d for d in dims_in]
        axes = [dims_in.index(d) for d in new_dims]
        dims, values, attrs, dimensions, coords, globals_ = read_netcdf(dst, "tas")
        check(list(dims) == new_dims, f"netCDF4 sees tas{dims}, expected {new_dims}")
        ref = np.transpose(data, axes)
        check(values.shape == ref.shape and values.tobytes() == np.ascontiguousarray(ref).tobytes(),
              f"values of tas{dims} differ from numpy.transpose(axes={axes})")
        check(float(attrs["_FillValue"]) == -999.0 and attrs["units"] == "K" and float(attrs["scale_factor"]) == 1.0
              and attrs["long_name"] == "near-surface air temperature", f"attributes: {attrs}")
        check(dimensions["time"] == (6, unlimited) and dimensions["lat"] == (5, False) and dimensions["lon"][0] == 7,
              f"dimensions: {dimensions}")
        check(np.array_equal(coords["time"], np.arange(6) * 1.5) and np.allclose(coords["lat"], np.linspace(-80, 80, 5)),
              f"coordinate variables: {coords}")
        check(globals_.get("title") == "xpose netCDF-4 test", f"global attributes: {globals_}")
        header = subprocess.run(["ncdump", "-h", dst], capture_output=True, text=True)
        check(header.returncode == 0, f"ncdump -h failed: {header.stderr}")
        check(f"float tas({', '.join(new_dims)})" in header.stdout, f"ncdump -h:\n{header.stdout}")
        full = subprocess.run(["ncdump", dst], capture_output=True, text=True)
        check(full.returncode == 0 and "tas =" in full.stdout, f"ncdump failed: {full.stderr}")
        with h5py.File(dst, "r") as f:
            coordinates = list(f["tas"].attrs["_Netcdf4Coordinates"])
            dimids = [int(f[d].attrs["_Netcdf4Dimid"]) for d in new_dims]
            check(coordinates == dimids, f"_Netcdf4Coordinates {coordinates} vs the scales' _Netcdf4Dimid {dimids}")
        os.remove(dst)
    # By number on a netCDF-4 variable: the same result.
    data = make_netcdf(src, rng)
    run("transpose", f"{src}:/tas", f"{dst}:/tas", "--axes", "1,2,0", "--quiet")
    dims, values, *_ = read_netcdf(dst, "tas")
    check(list(dims) == ["lat", "lon", "time"] and values.tobytes() == np.ascontiguousarray(
        np.transpose(data, (1, 2, 0))).tobytes(), f"by number: tas{dims}")
    # An unknown name is a usage error that lists the dimensions.
    proc = run("transpose", f"{src}:/tas", f"{dst}.x:/tas", "--axes", "lat,depth,time", expect=USAGE)
    check("depth" in proc.stderr and "time, lat, lon" in proc.stderr, proc.stderr)


def make_climate_file(path, rng):
    """Several variables over time, lat, lon (and a group, and a dimension without a coordinate
    variable), as a whole-file reorder meets them."""
    import netCDF4
    nt, ny, nx = 5, 6, 7
    values = {}
    with netCDF4.Dataset(path, "w") as f:
        f.createDimension("time", None)
        f.createDimension("lat", ny)
        f.createDimension("lon", nx)
        f.createDimension("nv", 2)
        f.createVariable("time", "f8", ("time",))[:] = np.arange(nt) * 30.0
        f["time"].units = "days since 1990-01-01"
        f.createVariable("lat", "f4", ("lat",))[:] = np.linspace(-60, 60, ny)
        f.createVariable("lon", "f4", ("lon",))[:] = np.linspace(0, 300, nx)
        for name, dims, dtype in [("tas", ("time", "lat", "lon"), "f4"), ("pr", ("time", "lat", "lon"), "f8"),
                                  ("orog", ("lat", "lon"), "f4"), ("series", ("time", "lon"), "i2"),
                                  ("lat_bnds", ("lat", "nv"), "f8")]:
            shape = tuple(len(f.dimensions[d]) if d != "time" else nt for d in dims)
            data = (rng.standard_normal(shape) * 100).astype(dtype)
            v = f.createVariable(name, dtype, dims, fill_value=False)
            v.long_name = name
            v[:] = data
            values[name] = (dims, data)
        g = f.createGroup("extra")
        v = g.createVariable("mask", "u1", ("lat", "time"))
        data = rng.integers(0, 2, size=(ny, nt)).astype(np.uint8)
        v[:] = data
        values["extra/mask"] = (("lat", "time"), data)
        f.history = "made by test_axes.py"
    return values


def group_wholefile(tmp):
    """A whole file, as ncpdq reorders it: every variable with some of the named dimensions
    reordered (those dimensions in the given order, in the places they hold), the rest copied;
    the result read back with netCDF4-python and compared with numpy and with ncpdq's output."""
    import netCDF4
    rng = np.random.default_rng(31)
    src, dst, ref = os.path.join(tmp, "in.nc"), os.path.join(tmp, "out.nc"), os.path.join(tmp, "ncpdq.nc")
    values = make_climate_file(src, rng)
    order = ["lat", "lon", "time"]
    proc = run("plan", src, dst, "--axes", ",".join(order))
    check("reorder  /tas" in proc.stdout and "copy     /orog" in proc.stdout, f"plan:\n{proc.stdout}")
    run("transpose", src, dst, "--axes", ",".join(order), "--quiet")
    have_ncpdq = shutil.which("ncpdq") is not None
    if have_ncpdq:
        subprocess.run(["ncpdq", "-O", "-a", ",".join(order), src, ref], check=True, capture_output=True)
    with netCDF4.Dataset(dst) as f:
        check(f.history == "made by test_axes.py", "global attributes not copied")
        for name, (dims, data) in values.items():
            v = f[name]
            named = [d for d in dims if d in order]
            it = iter([d for d in order if d in named])
            want = tuple(next(it) if d in named else d for d in dims)
            check(tuple(v.dimensions) == want, f"{name}{tuple(v.dimensions)}, expected {want}")
            axes = [dims.index(d) for d in want]
            got = np.asarray(v[:])
            check(np.array_equal(got, np.transpose(data, axes)), f"{name}: values differ from numpy.transpose")
            check(v.long_name == name if name != "extra/mask" else True, f"{name}: attributes not copied")
        check(np.array_equal(f["time"][:], np.arange(5) * 30.0) and f["time"].units == "days since 1990-01-01",
              "coordinate variable time")
    if have_ncpdq:
        with netCDF4.Dataset(dst) as a, netCDF4.Dataset(ref) as b:
            for name in values:
                check(tuple(a[name].dimensions) == tuple(b[name].dimensions) and
                      np.array_equal(np.asarray(a[name][:]), np.asarray(b[name][:])),
                      f"{name}: xpose {a[name].dimensions} differs from ncpdq {b[name].dimensions}")
    check(subprocess.run(["ncdump", dst], capture_output=True).returncode == 0, "ncdump cannot read the output")
    no_leftovers(tmp, ["in.nc", "out.nc", "ncpdq.nc"])
    # Interrupted in the first variable's run, then resumed: the same file.
    os.remove(dst)
    env = dict(os.environ, XPOSE_TEST_SIGNAL_AT_STAGE="0:15")
    run("transpose", src, dst, "--axes", ",".join(order), "--max-stage-width", "2", "--quiet", expect=INTERRUPTED,
        env=env)
    check(not os.path.exists(dst), "an interrupted whole-file run left a final output")
    run("transpose", src, dst, "--axes", ",".join(order), "--max-stage-width", "2", "--resume", "--quiet")
    with netCDF4.Dataset(dst) as f:
        dims, data = values["tas"]
        check(np.array_equal(np.asarray(f["tas"][:]), np.transpose(data, (1, 2, 0))), "resumed whole file: tas")
    no_leftovers(tmp, ["in.nc", "out.nc", "ncpdq.nc"])
    # Numbers mean nothing across variables; an unknown name lists the file's dimensions.
    run("transpose", src, dst + "2", "--axes", "1,2,0", expect=USAGE)
    proc = run("transpose", src, dst + "2", "--axes", "lat,depth", expect=USAGE)
    check("depth" in proc.stderr and "lon" in proc.stderr, proc.stderr)


GROUPS = {name[len("group_"):]: fn for name, fn in globals().items() if name.startswith("group_")}


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--xpose", required=True)
    parser.add_argument("--np", type=int, default=1)
    parser.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    parser.add_argument("--group", action="append", choices=sorted(GROUPS), help="default: all")
    parser.add_argument("--extra", default="", help="arguments appended to every transpose, e.g. '--backend cuda'")
    ARGS = parser.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    failed = 0
    for name in ARGS.group or sorted(GROUPS):
        tmp = tempfile.mkdtemp(prefix=f"xpose-axes-{name}-")
        try:
            GROUPS[name](tmp)
            print(f"PASS {name} (np={ARGS.np}{' ' + ARGS.extra if ARGS.extra else ''})")
        except AssertionError as e:
            failed += 1
            print(f"FAIL {name} (np={ARGS.np}{' ' + ARGS.extra if ARGS.extra else ''}): {e}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
