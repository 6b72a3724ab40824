#!/usr/bin/env python3
"""End-to-end tests of the `xpose` command line.

Inputs are written with h5py and every output is checked against numpy's swapaxes of the
input, byte for byte, so the reference is computed independently of xpose. Each group of
cases runs under `mpiexec -np N` for the N given on the command line.

    test_cli.py --xpose build/bin/xpose --np 3 --group shapes [--mpiexec "mpiexec --oversubscribe"]
"""
import argparse
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

# Exit codes (xpose --help documents them)
OK, USAGE, NOT_FOUND, UNREADABLE, UNSUPPORTED, OUTPUT_REFUSED, IO_FAILURE, MISMATCH, RESOURCES = 0, 2, 3, 4, 5, 6, 7, 8, 9

ARGS = None
FAILURES = []


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


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def pattern(shape, dtype, seed=0):
    """Distinct-ish values of any dtype (structured complex included), from the linear index."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    raw = rng.integers(0, 256, size=n * np.dtype(dtype).itemsize, dtype=np.uint8)
    a = raw.view(dtype).reshape(shape).copy()
    if np.dtype(dtype).kind in "fc":
        a = np.nan_to_num(a, nan=1.5, posinf=2.5, neginf=-2.5)
    # Make every element distinct in its first bytes where the type allows, so misplacements show.
    if np.dtype(dtype).kind in "iu" and np.dtype(dtype).itemsize >= 4:
        a = (np.arange(n, dtype=np.int64) * 2654435761 % (2**31)).astype(dtype).reshape(shape)
    return a


def make_input(path, data, dset="/data", chunks=None, compression=None, attrs=None):
    with h5py.File(path, "w") as f:
        d = f.create_dataset(dset, data=data, chunks=chunks, compression=compression)
        for k, v in (attrs or {}).items():
            d.attrs[k] = v


def expect_transposed(in_path, out_path, dset="/data", out_dset="/data"):
    with h5py.File(in_path, "r") as fi, h5py.File(out_path, "r") as fo:
        a, b = fi[dset], fo[out_dset]
        check(b.shape == a.shape[:-2] + (a.shape[-1], a.shape[-2]), f"shape {b.shape} vs input {a.shape}")
        check(a.id.get_type() == b.id.get_type(), f"datatype changed: {a.dtype} -> {b.dtype}")
        ref = np.ascontiguousarray(np.swapaxes(a[()], -1, -2))
        got = np.ascontiguousarray(b[()])
        if ref.tobytes() != got.tobytes():
            rb = np.frombuffer(ref.tobytes(), np.uint8)
            gb = np.frombuffer(got.tobytes(), np.uint8)
            first = int(np.argmax(rb != gb)) // a.dtype.itemsize
            raise AssertionError(f"{out_path} ({a.dtype}, {a.shape}): {np.count_nonzero(rb != gb)} bytes differ "
                                 f"from numpy; first differing element (flat) {first}: "
                                 f"{ref.reshape(-1)[first]!r} vs {got.reshape(-1)[first]!r}")
        return {k: fo[out_dset].attrs[k] for k in fo[out_dset].attrs}


def no_leftovers(directory, allowed):
    extra = sorted(set(os.listdir(directory)) - set(allowed))
    check(not extra, f"files left behind in {directory}: {extra}")


# ---------------------------------------------------------------------------------------------
# Groups of cases


def group_shapes(tmp):
    """Shapes: 1x1, 1xN, Nx1, primes, sizes not divisible by the rank count, batches."""
    shapes = [(1, 1), (1, 37), (41, 1), (257, 1031), (64, 64), (7, 3), (5, 1000), (3, 4, 5), (2, 3, 17, 13),
              (6, 31, 33)]
    for shape in shapes:
        src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
        make_input(src, pattern(shape, np.float32))
        run("transpose", f"{src}:/data", f"{dst}:/data", "--quiet")
        expect_transposed(src, dst)
        run("verify", f"{src}:/data", f"{dst}:/data", "--quiet")
        os.remove(dst)
        no_leftovers(tmp, ["in.h5"])


def group_dtypes(tmp):
    """Every element size, both byte orders, h5py's complex compounds, ints of every width."""
    dtypes = ["<i1", "<u1", "<i2", ">u2", "<f2", "<i4", "<f4", ">f4", "<u4", "<i8", ">f8", "<f8", "<c8", "<c16",
              ">c16", "<u8"]
    shape = (37, 53)
    for dt in dtypes:
        src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
        make_input(src, pattern(shape, np.dtype(dt)))
        run("transpose", f"{src}:/data", f"{dst}:/data", "--quiet")
        expect_transposed(src, dst)
        os.remove(dst)
    # 16-byte non-complex element: a compound of two int64 (still moved as raw bytes)
    two = np.dtype([("a", "<i8"), ("b", "<i8")])
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    make_input(src, pattern((19, 23), two))
    run("transpose", f"{src}:/data", f"{dst}:/data", "--quiet")
    expect_transposed(src, dst)


def group_layouts(tmp):
    """Chunked and gzip-compressed input; chunked output; nested dataset paths; attributes."""
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    data = pattern((300, 211), np.float64)
    make_input(src, data, dset="/group/sub/matrix", chunks=(64, 50), compression="gzip",
               attrs={"units": "m/s", "scale": np.float64(2.5), "tags": np.arange(4)})
    run("transpose", f"{src}:/group/sub/matrix", f"{dst}:/out/t", "--quiet", "--chunk", "32x40")
    attrs = expect_transposed(src, dst, dset="/group/sub/matrix", out_dset="/out/t")
    check(attrs["units"] in ("m/s", b"m/s"), f"attribute units not copied: {dict(attrs)}")
    check(float(attrs["scale"]) == 2.5 and list(attrs["tags"]) == [0, 1, 2, 3], "attributes not copied")
    check(list(attrs["xpose_source_shape"]) == [300, 211], f"provenance shape: {attrs.get('xpose_source_shape')}")
    src_attr = attrs["xpose_source_file"]
    src_attr = src_attr.decode() if isinstance(src_attr, bytes) else src_attr
    check(src_attr.endswith("in.h5"), f"provenance file: {src_attr}")
    check("xpose_version" in attrs and "xpose_source_path" in attrs, "provenance attributes missing")
    with h5py.File(dst, "r") as f:
        check(f["/out/t"].chunks == (32, 40), f"output chunks {f['/out/t'].chunks}")


def group_streaming(tmp):
    """Out of core: a budget much smaller than the matrix forces many stages."""
    src, dst = os.path.join(tmp, "in.h5"), os.path.join(tmp, "out.h5")
    make_input(src, pattern((513, 770), np.complex64))
    proc = run("plan", f"{src}:/data", f"{dst}:/data", "--host-mem", "96KiB")
    check("stages" in proc.stdout, proc.stdout)
    run("transpose", f"{src}:/data", f"{dst}:/data", "--host-mem", "96KiB", "--quiet")
    expect_transposed(src, dst)
    os.remove(dst)
    run("transpose", f"{src}:/data", f"{dst}:/data", "--max-stage-width", "7", "--io", "independent", "--quiet")
    expect_transposed(src, dst)
    os.remove(dst)
    # batch with streaming inside each matrix
    make_input(src, pattern((3, 100, 90), np.int16))
    run("transpose", f"{src}:/data", f"{dst}:/data", "--max-stage-width", "4", "--quiet")
    expect_transposed(src, dst)


def group_generate_verify(tmp):
    """generate writes the pattern; verify accepts the transpose and rejects a wrong file."""
    src, dst = os.path.join(tmp, "g.h5"), os.path.join(tmp, "t.h5")
    run("generate", f"{src}:/m", "--shape", "3x45x67", "--dtype", "complex128", "--quiet")
    with h5py.File(src, "r") as f:
        d = f["/m"]
        check(d.shape == (3, 45, 67) and d.dtype == np.complex128, f"generated {d.shape} {d.dtype}")
        v = d[()]
        check(np.isfinite(v).all() and len(np.unique(v)) > 0.99 * v.size, "pattern is not distinct and finite")
    run("transpose", f"{src}:/m", f"{dst}:/m", "--quiet")
    expect_transposed(src, dst, "/m", "/m")
    run("verify", f"{src}:/m", f"{dst}:/m", "--quiet")
    run("verify", f"{src}:/m", f"{dst}:/m", "--sample", "500", "--quiet")
    with h5py.File(dst, "r+") as f:
        f["/m"][1, 10, 20] = f["/m"][1, 10, 20] + 1
    proc = run("verify", f"{src}:/m", f"{dst}:/m", expect=MISMATCH)
    check("1 of" in proc.stderr, f"mismatch report: {proc.stderr}")
    run("verify", f"{src}:/m", f"{src}:/m", expect=MISMATCH)  # not transposed: shape differs
    for dt in ["float32", "float64", "complex64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64"]:
        run("generate", f"{src}:/m", "--shape", "17x19", "--dtype", dt, "--force", "--quiet")
        with h5py.File(src, "r") as f:
            check(f["/m"].dtype == np.dtype(dt), f"generate --dtype {dt} gave {f['/m'].dtype}")


def group_info(tmp):
    src = os.path.join(tmp, "in.h5")
    make_input(src, pattern((100, 80), np.float32), chunks=(10, 10), compression="gzip")
    proc = run("info", f"{src}:/data")
    for word in ["100x80", "chunk", "10x10", "deflate", "plan", "stage"]:
        check(word in proc.stdout, f"info lacks '{word}':\n{proc.stdout}")
    # --kernels: the CUDA kernel choice and the table row behind it, on a named device profile
    # (the same text with or without a GPU or CUDA in the build).
    proc = run("info", f"{src}:/data", "--kernels", "--device", "h100")
    for word in ["kernels  out of place", "kernel_table.csv line", "NVIDIA H100"]:
        check(word in proc.stdout, f"info --kernels lacks '{word}':\n{proc.stdout}")
    run("info", f"{src}:/data", "--kernels", "--device", "no-such-gpu", expect=UNSUPPORTED)
    proc = run("--help", expect=OK)
    for word in ["transpose", "verify", "Exit codes", "75"]:
        check(word in proc.stdout, f"--help lacks '{word}'")
    for sub in ["transpose", "info", "plan", "generate", "verify"]:
        proc = run(sub, "--help")
        check("Usage" in proc.stdout and "--help" in proc.stdout, f"{sub} --help:\n{proc.stdout}")


def group_errors(tmp):
    """Every error: the right exit code, a one-line message, no output left, input unchanged."""
    src = os.path.join(tmp, "in.h5")
    make_input(src, pattern((20, 30), np.float32), attrs={"a": 1})
    with h5py.File(src, "a") as f:
        f.create_group("grp")
        f.create_dataset("vec", data=np.arange(10))
        f.create_dataset("vlen", data=["a", "bb", "ccc", "d"], dtype=h5py.string_dtype())
        f.create_dataset("vlen2d", shape=(2, 2), dtype=h5py.vlen_dtype(np.int32))
        f.create_dataset("odd", data=np.zeros((4, 4), dtype=[("a", "u1"), ("b", "u1"), ("c", "u1")]))
        f.create_dataset("wide", data=np.zeros((4, 4), dtype=[("a", "<f8", (4,))]))
        f.create_dataset("scalar", data=3.0)
    before = sha(src)
    out = os.path.join(tmp, "out.h5")
    text = os.path.join(tmp, "notes.txt")
    with open(text, "w") as f:
        f.write("not hdf5\n" * 100)
    truncated = os.path.join(tmp, "trunc.h5")
    make_input(truncated, pattern((200, 200), np.float64))
    with open(truncated, "r+b") as f:
        f.truncate(os.path.getsize(truncated) // 2)

    cases = [
        (NOT_FOUND, [f"{tmp}/missing.h5:/data", f"{out}:/data"]),
        (NOT_FOUND, [f"{src}:/nope", f"{out}:/data"]),
        (NOT_FOUND, [f"{src}:/grp", f"{out}:/data"]),
        (UNREADABLE, [f"{text}:/data", f"{out}:/data"]),
        (UNREADABLE, [f"{truncated}:/data", f"{out}:/data"]),
        (UNSUPPORTED, [f"{src}:/vec", f"{out}:/data"]),
        (UNSUPPORTED, [f"{src}:/scalar", f"{out}:/data"]),
        (UNSUPPORTED, [f"{src}:/vlen", f"{out}:/data"]),
        (UNSUPPORTED, [f"{src}:/vlen2d", f"{out}:/data"]),
        (UNSUPPORTED, [f"{src}:/odd", f"{out}:/data"]),
        (UNSUPPORTED, [f"{src}:/wide", f"{out}:/data"]),
        (OUTPUT_REFUSED, [f"{src}:/data", f"{src}:/other"]),
        (OUTPUT_REFUSED, [f"{src}:/data", f"{tmp}/./in.h5:/other"]),
        (OUTPUT_REFUSED, [f"{src}:/data", f"{tmp}/no/such/dir/out.h5:/data"]),
        (USAGE, [f"{src}", f"{out}:/data"]),
        (USAGE, [f"{src}:/data", f"{out}:/data", "--host-mem", "lots"]),
        (USAGE, [f"{src}:/data", f"{out}:/data", "--bogus"]),
        (USAGE, [f"{src}:/data", f"{out}:/data", "--chunk", "3x3x3"]),
        (RESOURCES, [f"{src}:/data", f"{out}:/data", "--host-mem", "16"]),
    ]
    for code, argv in cases:
        proc = run("transpose", *argv, expect=code)
        lines = [l for l in proc.stderr.splitlines() if l.startswith("xpose")]
        check(len(lines) == 1, f"expected one error line for {argv}, got:\n{proc.stderr}")
        check(not os.path.exists(out), f"output left behind by {argv}")
        no_leftovers(tmp, ["in.h5", "notes.txt", "trunc.h5"])
    # An existing output is refused without --force and left untouched; --force replaces it.
    with open(out, "w") as f:
        f.write("precious")
    run("transpose", f"{src}:/data", f"{out}:/data", expect=OUTPUT_REFUSED)
    check(open(out).read() == "precious", "existing output was modified without --force")
    run("transpose", f"{src}:/data", f"{out}:/data", "--force", "--quiet")
    expect_transposed(src, out)
    check(sha(src) == before, "the input file changed")
    # A read-only output directory (only meaningful when not root: root may write anywhere)
    if os.geteuid() != 0:
        ro = os.path.join(tmp, "ro")
        os.mkdir(ro)
        os.chmod(ro, 0o555)
        run("transpose", f"{src}:/data", f"{ro}/out.h5:/data", expect=OUTPUT_REFUSED)
    # unknown command and bad generate arguments
    run("frobnicate", expect=USAGE)
    run("generate", f"{out}:/g", "--shape", "0x5", "--force", expect=USAGE)
    run("generate", f"{out}:/g", "--shape", "5x5", "--dtype", "float17", "--force", expect=USAGE)


def group_resume(tmp):
    """Stop (SIGUSR1, SIGTERM) or kill (SIGKILL) a run part way, then --resume it: the result is
    byte-identical to an uninterrupted run's file; a resume with other options is refused."""
    src = os.path.join(tmp, "in.h5")
    make_input(src, pattern((3, 64, 150), np.float32), attrs={"note": "resume"})
    ref, dst = os.path.join(tmp, "ref.h5"), os.path.join(tmp, "out.h5")
    opts = ["--max-stage-width", "5", "--quiet"]
    run("transpose", f"{src}:/data", f"{ref}:/data", *opts)
    journal, partial = os.path.join(tmp, ".out.h5.xpose-journal"), os.path.join(tmp, ".out.h5.xpose-partial")
    for sig in (10, 15, 9):  # SIGUSR1, SIGTERM: clean stop with exit 75; SIGKILL: the job dies
        env = dict(os.environ, XPOSE_TEST_SIGNAL_AT_STAGE=f"4:{sig}")
        proc = run("transpose", f"{src}:/data", f"{dst}:/data", *opts, "--json", os.path.join(tmp, "s.json"),
                   env=env, expect=None)
        if sig == 9:
            check(proc.returncode != 0, "a killed run reported success")
        else:
            check(proc.returncode == 75, f"stop by signal {sig}: exit {proc.returncode}\n{proc.stderr}")
            with open(os.path.join(tmp, "s.json")) as f:
                summary = f.read()
            check('"status":"interrupted"' in summary and '"exit_code":75' in summary, summary)
        check(not os.path.exists(dst), "an interrupted run left a file under the final name")
        check(os.path.exists(journal) and os.path.exists(partial), "journal or partial output missing")
        with open(journal) as f:
            done = int([l for l in f if l.startswith("stages_done=")][0].split("=")[1])
        check(1 <= done <= 5 if sig != 9 else 0 <= done <= 5, f"journal says {done} stages done")
        # A different stage width is another run: refused, and nothing is touched.
        run("transpose", f"{src}:/data", f"{dst}:/data", "--max-stage-width", "6", "--quiet", "--resume", expect=11)
        check(os.path.exists(partial), "a refused resume removed the partial output")
        run("transpose", f"{src}:/data", f"{dst}:/data", *opts, "--resume")
        check(not os.path.exists(journal) and not os.path.exists(partial), "journal or partial left after resume")
        expect_transposed(src, dst)
        check(sha(dst) == sha(ref), f"resumed output (signal {sig}) differs from an uninterrupted run's bytes")
        with h5py.File(dst, "r") as f:
            check(f["/data"].attrs["xpose_complete"] in ("yes", b"yes"), "no completion marker")
        os.remove(dst)
    # --resume with nothing to resume starts from the beginning; an old journal without --resume
    # is discarded.
    run("transpose", f"{src}:/data", f"{dst}:/data", *opts, "--resume")
    check(sha(dst) == sha(ref), "fresh --resume run differs")
    os.remove(dst)
    env = dict(os.environ, XPOSE_TEST_SIGNAL_AT_STAGE="2:10")
    run("transpose", f"{src}:/data", f"{dst}:/data", *opts, env=env, expect=75)
    # A journal changed after the fact (edited, or torn by a crash) is refused, not trusted.
    with open(journal) as f:
        text = f.read()
    with open(journal, "w") as f:
        f.write(text.replace("stages_done=", "stages_done=1"))
    proc = run("transpose", f"{src}:/data", f"{dst}:/data", *opts, "--resume", expect=11)
    check("damaged" in proc.stderr and os.path.exists(partial), proc.stderr)
    run("transpose", f"{src}:/data", f"{dst}:/data", *opts)
    check(sha(dst) == sha(ref) and not os.path.exists(journal), "a restart over an old journal went wrong")


def group_diskfull(tmp):
    """A full file system: refused up front when the output cannot fit; when the space goes while
    the run writes, exit 7 and no partial output or journal is left (each write method)."""
    small = os.path.join(tmp, "small")
    os.mkdir(small)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=20M", "tmpfs", small], capture_output=True).returncode != 0:
        print("  (skipped: cannot mount a small tmpfs here)")
        return
    try:
        src = os.path.join(tmp, "in.h5")
        make_input(src, pattern((2000, 2000), np.float64))  # 30.5 MiB: does not fit
        proc = run("transpose", f"{src}:/data", f"{small}/out.h5:/data", expect=IO_FAILURE)
        check("not enough space" in proc.stderr, proc.stderr)
        check(os.listdir(small) == [], f"left in the full file system: {os.listdir(small)}")
        make_input(src, pattern((1000, 1000), np.float64))  # 7.6 MiB: fits in the 9 MiB left ...
        for method in ("mmap", "pwrite"):
            with open(os.path.join(small, "fill"), "wb") as f:
                f.write(b"\0" * (11 << 20))
            # The space goes while the run writes stages: the run holds before transforming stage
            # 2 (XPOSE_TEST_HOLD_AT_STAGE) until the file system is full. (A file system filling
            # up while the output is being created is covered by the check up front; HDF5's own
            # collective error paths are not made for it.)
            hold = os.path.join(tmp, "hold")
            env = dict(os.environ, XPOSE_DIRECT_WRITE=method, XPOSE_TEST_HOLD_AT_STAGE=f"2:{hold}")
            cmd = shlex.split(ARGS.mpiexec) + ["-n", str(ARGS.np), ARGS.xpose, "transpose", f"{src}:/data",
                                                f"{small}/out.h5:/data", "--max-stage-width", "5", "--quiet"]
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            while not os.path.exists(hold) and proc.poll() is None:
                time.sleep(0.01)
            try:  # ... until something else takes it while the run writes
                with open(os.path.join(small, "fill2"), "wb") as f:
                    f.write(b"\0" * (9 << 20))
            except OSError:
                pass
            if os.path.exists(hold):
                os.remove(hold)
            try:
                out, err = proc.communicate(timeout=300)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                raise AssertionError(f"{method}: the run did not end within 300 s on a full file system")
            check(proc.returncode == IO_FAILURE, f"{method}: exit {proc.returncode}, expected 7\n{err}")
            left = [n for n in os.listdir(small) if not n.startswith("fill")]
            check(left == [], f"{method}: left behind: {left}")
            for n in ("fill", "fill2"):
                if os.path.exists(os.path.join(small, n)):
                    os.remove(os.path.join(small, n))
    finally:
        subprocess.run(["umount", small], capture_output=True)


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
        tmp = tempfile.mkdtemp(prefix=f"xpose-cli-{name}-")
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
