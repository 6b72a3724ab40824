#!/usr/bin/env python3
"""Fault injection: unusual but valid inputs, hostile names and file-system events, each against
the `xpose` command under mpiexec.

Every case asserts the exit code, the one-line message, the files left in its directory (none
but its own, or a resumable partial output and journal), the input's checksum, and, where an
output is expected, every element of it against numpy's swapaxes of the input.

Events in the middle of a run happen at a fixed point: with XPOSE_TEST_HOLD_AT_STAGE=K:FILE,
once every rank has read and checked stage K's input, rank 0 writes its pid to FILE and waits,
before its transform, until FILE is removed; the case acts (truncates or rewrites the input,
starts a second run, signals mpirun) and removes FILE.

    test_faults.py --xpose build/bin/xpose --np 2 [--mpiexec "mpiexec --oversubscribe"] [--case NAME]
"""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

OK, USAGE, NOT_FOUND, UNREADABLE, UNSUPPORTED, REFUSED, IO_FAILURE, RESUME_REFUSED, INTERRUPTED = 0, 2, 3, 4, 5, 6, 7, 11, 75
ARGS = None


class Failure(AssertionError):
    pass


def check(cond, message):
    if not cond:
        raise Failure(message)


def command(*xpose_args, np_=None):
    return shlex.split(ARGS.mpiexec) + ["-n", str(np_ or ARGS.np), ARGS.xpose] + [str(a) for a in xpose_args]


def run(*xpose_args, env=None, timeout=120):
    """Runs xpose to the end; returns (exit code, stdout, stderr)."""
    e = dict(os.environ, **(env or {}))
    try:
        p = subprocess.run(command(*xpose_args), capture_output=True, text=True, timeout=timeout, env=e,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Failure(f"xpose {' '.join(map(str, xpose_args))}: still running after {timeout} s")
    return p.returncode, p.stdout, p.stderr


def start(*xpose_args, env=None):
    e = dict(os.environ, **(env or {}))
    return subprocess.Popen(command(*xpose_args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e,
                            stdin=subprocess.DEVNULL)


def finish(proc, timeout=120):
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise Failure(f"the run did not end within {timeout} s")
    return proc.returncode, out, err


def wait_for(path, proc, timeout=60):
    """Waits until `path` exists (the run holds there); returns its text."""
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path):  # renamed into place whole
            with open(path) as f:
                return f.read()
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise Failure(f"the run ended (exit {proc.returncode}) before reaching its hold point\n{err}")
        time.sleep(0.02)
    raise Failure(f"the run did not reach its hold point within {timeout} s")


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def messages(stderr, kind="error"):
    """The distinct 'xpose: <kind>:' lines, each rank's ' (rank N)' suffix taken off."""
    lines = [l for l in stderr.splitlines() if l.startswith(f"xpose: {kind}:")]
    return lines, sorted({re.sub(r" \(rank \d+\)$", "", l) for l in lines})


def expect(result, code, pattern=None, single_line=True):
    """Exit code, and one message matching `pattern`: one line when decided before any work
    (single_line), else one distinct message (each failing rank may print it)."""
    rc, out, err = result
    check(rc == code, f"exit {rc}, expected {code}\n  stdout: {out.strip()}\n  stderr: {err.strip()}")
    if pattern is None:
        return
    lines, distinct = messages(err)
    all_xpose = [l for l in err.splitlines() if l.startswith("xpose")]
    if single_line:
        check(len(all_xpose) == 1, f"expected one line from xpose, got:\n{err}")
    check(len(distinct) == 1, f"expected one error message, got:\n{err}")
    check(re.search(pattern, distinct[0]), f"message does not match /{pattern}/:\n  {distinct[0]}")


def left(directory, expected):
    got = sorted(os.listdir(directory))
    check(got == sorted(expected), f"files left in {directory}: {got}, expected {sorted(expected)}")


def transposed(in_path, dset, out_path, out_dset):
    """Every element of the output against numpy's swapaxes of the input; returns the output's attrs."""
    with h5py.File(in_path, "r") as fi, h5py.File(out_path, "r") as fo:
        a, b = fi[dset], fo[out_dset]
        check(b.shape == a.shape[:-2] + (a.shape[-1], a.shape[-2]), f"output shape {b.shape} for input {a.shape}")
        check(a.id.get_type() == b.id.get_type(), f"datatype changed: {a.dtype} -> {b.dtype}")
        ref = np.ascontiguousarray(np.swapaxes(a[()], -1, -2)).tobytes()
        got = np.ascontiguousarray(b[()]).tobytes()
        if ref != got:
            n = sum(x != y for x, y in zip(np.frombuffer(ref, np.uint8), np.frombuffer(got, np.uint8)))
            raise Failure(f"{out_path}: {n} bytes differ from numpy's transpose of {in_path}:{dset}")
        return {k: b.attrs[k] for k in b.attrs}


def pattern(shape, dtype=np.float64, seed=0):
    n = int(np.prod(shape))
    return (np.arange(n, dtype=np.float64) * 0.5 + seed).astype(dtype).reshape(shape)


def make(path, data, dset="m", **kw):
    with h5py.File(path, "w") as f:
        f.create_dataset(dset, data=data, **kw)


# Several stages at every rank count, so a run can be held in the middle.
SHAPE, WIDTH = (48, 240), ["--max-stage-width", "8"]


# ---------------------------------------------------------------------------------------------
# 1. Silent wrong output: the direct I/O paths read only the file the dataset lives in.

def case_external_link(d):
    tgt, links = f"{d}/tgt.h5", f"{d}/links.h5"
    with h5py.File(tgt, "w") as f:
        f.create_group("g").create_dataset("m", data=pattern((30, 41), np.float32, seed=3))
    with h5py.File(links, "w") as f:
        f["pad"] = np.full(1000, 9.0)  # the named file has other data at the target's offset
        f["ext"] = h5py.ExternalLink(tgt, "/g/m")
    before = sha(tgt), sha(links)
    expect(run("transpose", f"{links}:/ext", f"{d}/out.h5:/t", "--quiet"), OK)
    transposed(tgt, "/g/m", f"{d}/out.h5", "/t")
    check((sha(tgt), sha(links)) == before, "an input changed")
    left(d, ["tgt.h5", "links.h5", "out.h5"])


def case_userblock(d):
    src = f"{d}/in.h5"
    with h5py.File(src, "w", userblock_size=4096) as f:
        f.create_dataset("m", data=pattern((37, 53), np.int32))
    with open(src, "r+b") as f:
        f.write(b"user block: not HDF5 data" * 10)
    before = sha(src)
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--quiet"), OK)
    transposed(src, "/m", f"{d}/out.h5", "/m")
    check(sha(src) == before, "the input changed")
    left(d, ["in.h5", "out.h5"])


# ---------------------------------------------------------------------------------------------
# 2. Names xpose writes, taken by symbolic links: refused before any work, nothing written.

def symlink_case(d, name, target_exists=True):
    src, victim = f"{d}/in.h5", f"{d}/victim"
    make(src, pattern(SHAPE))
    if target_exists:
        with open(victim, "w") as f:
            f.write("not xpose's\n")
    os.symlink(victim, f"{d}/{name}")
    before = sha(src)
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--quiet"), REFUSED, re.escape(name) + ".*symbolic link")
    check(sha(src) == before, "the input changed")
    if target_exists:
        check(open(victim).read() == "not xpose's\n", "the symbolic link's target was written")
    left(d, ["in.h5", name] + (["victim"] if target_exists else []))
    check(os.path.islink(f"{d}/{name}"), "the symbolic link was removed")


def case_symlink_at_partial(d):
    symlink_case(d, ".out.h5.xpose-partial")


def case_symlink_at_journal(d):
    symlink_case(d, ".out.h5.xpose-journal")


def case_dangling_symlink_at_partial(d):
    symlink_case(d, ".out.h5.xpose-partial", target_exists=False)


def case_symlink_at_output_with_force(d):
    src, victim = f"{d}/in.h5", f"{d}/victim"
    make(src, pattern(SHAPE))
    with open(victim, "w") as f:
        f.write("not xpose's\n")
    os.symlink(victim, f"{d}/out.h5")
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--force", "--quiet"), REFUSED, "symbolic link")
    check(open(victim).read() == "not xpose's\n", "the symbolic link's target was written")
    left(d, ["in.h5", "out.h5", "victim"])


def unrelated_file_case(d, name, message):
    """A file xpose did not create at one of its names: refused, and left as it was."""
    src = f"{d}/in.h5"
    make(src, pattern(SHAPE))
    with open(f"{d}/{name}", "w") as f:
        f.write("someone's notes\n")
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--quiet"), REFUSED, message)
    check(open(f"{d}/{name}").read() == "someone's notes\n", "a file xpose did not create changed")
    left(d, ["in.h5", name])


def case_unrelated_file_at_partial(d):
    unrelated_file_case(d, ".out.h5.xpose-partial", "no xpose journal claims it")


def case_unrelated_file_at_journal(d):
    unrelated_file_case(d, ".out.h5.xpose-journal", "not an xpose journal")


# ---------------------------------------------------------------------------------------------
# 3. One writer per output: a second run is refused at once and touches nothing.

def case_second_run_refused(d):
    src, hold = f"{d}/in.h5", f"{d}/hold"
    make(src, pattern(SHAPE))
    before = sha(src)
    first = start("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet",
                  env={"XPOSE_TEST_HOLD_AT_STAGE": f"2:{hold}"})
    pid = wait_for(hold, first).strip()
    journal, partial = f"{d}/.out.h5.xpose-journal", f"{d}/.out.h5.xpose-partial"
    journal_before = sha(journal)
    for extra in ([], ["--resume"], ["--force"]):
        second = run("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet", *extra)
        expect(second, REFUSED,
               rf"another xpose run is writing '.*out\.h5:/m': pid {pid} on host {re.escape(socket.gethostname())}")
        check(sha(journal) == journal_before and os.path.exists(partial), "the second run touched the first's files")
    os.remove(hold)
    expect(finish(first), OK)
    transposed(src, "/m", f"{d}/out.h5", "/m")
    check(sha(src) == before, "the input changed")
    left(d, ["in.h5", "out.h5"])


def case_resume_after_kill(d):
    # The kernel drops a killed run's lock: --resume continues it.
    src = f"{d}/in.h5"
    make(src, pattern(SHAPE))
    before = sha(src)
    rc, _, _ = run("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet",
                   env={"XPOSE_TEST_SIGNAL_AT_STAGE": "3:9"})
    check(rc != 0, "a killed run reported success")
    left(d, ["in.h5", ".out.h5.xpose-journal", ".out.h5.xpose-partial"])
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet", "--resume"), OK)
    transposed(src, "/m", f"{d}/out.h5", "/m")
    check(sha(src) == before, "the input changed")
    left(d, ["in.h5", "out.h5"])


# ---------------------------------------------------------------------------------------------
# 4. The input is never one of the output's own names.

def input_is_own_name_case(d, name):
    src = f"{d}/{name}"
    make(src, pattern(SHAPE))
    before = sha(src)
    expect(run("transpose", f"{src}:/m", f"{d}/o.h5:/m", "--quiet"), REFUSED, "xpose never writes over its input")
    check(sha(src) == before, "the input changed")
    left(d, [name])


def case_input_is_partial_name(d):
    input_is_own_name_case(d, ".o.h5.xpose-partial")


def case_input_is_journal_name(d):
    input_is_own_name_case(d, ".o.h5.xpose-journal")


# ---------------------------------------------------------------------------------------------
# 5. No crash: empty datasets, an input truncated while mapped.

def case_zero_length(d):
    for shape in [(0, 5), (3, 0, 4), (4, 0), (2, 3, 0)]:
        src, dst = f"{d}/in.h5", f"{d}/out.h5"
        make(src, np.zeros(shape, np.float32), fillvalue=np.float32(2.5))
        before = sha(src)
        for cmd in (["info", f"{src}:/m"], ["plan", f"{src}:/m", f"{dst}:/m"]):
            rc, out, err = run(*cmd)
            expect((rc, out, err), OK)
            check("stages           0" in out and "empty" in out, f"{cmd[0]} of {shape}:\n{out}")
        expect(run("transpose", f"{src}:/m", f"{dst}:/m", "--quiet", "--chunk", "2x2" if len(shape) == 2 else "1x2x2"),
               OK)
        transposed(src, "/m", dst, "/m")
        with h5py.File(dst, "r") as f:
            check(f["m"].attrs["xpose_complete"] in (b"yes", "yes"), "an empty output is not marked complete")
            check(f["m"].fillvalue == 2.5, "the fill value is lost")
        check(sha(src) == before, "the input changed")
        left(d, ["in.h5", "out.h5"])
        os.remove(dst)


def truncate_case(d, extra, env, sigbus):
    src, hold = f"{d}/in.h5", f"{d}/hold"
    make(src, pattern((64, 240)))
    with h5py.File(src, "r") as f:
        offset = f["m"].id.get_offset()
    proc = start("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet", *extra,
                 env=dict(env, XPOSE_TEST_HOLD_AT_STAGE=f"2:{hold}"))
    wait_for(hold, proc)
    os.truncate(src, offset + 1024)  # every rank's rows are cut
    truncated = sha(src)
    os.remove(hold)
    expect(finish(proc), IO_FAILURE,
           r"the input '.*in\.h5' changed during the run \(" +
           (r"it was truncated while being read" if sigbus else r"") + r".*the output is not committed",
           single_line=False)
    check(sha(src) == truncated, "the input changed after the test truncated it")
    left(d, ["in.h5"])


def case_truncated_mapped_input(d):
    # Mapped input and output, the CPU transpose reading the input's pages: the truncation comes
    # after the stage's check, so the transpose itself faults (SIGBUS) and the handler reports.
    truncate_case(d, ["--backend", "cpu"], {"XPOSE_DIRECT_WRITE": "mmap"}, sigbus=True)


def case_truncated_mapped_input_chunked_output(d):
    truncate_case(d, ["--chunk", "16x16"], {}, sigbus=False)


def case_truncated_input_hdf5_reads(d):
    truncate_case(d, ["--io", "independent"], {}, sigbus=False)


# ---------------------------------------------------------------------------------------------
# 6. Valid inputs that were refused or failed mid-run.

def case_dense_attributes(d):
    src = f"{d}/in.h5"
    with h5py.File(src, "w", libver="latest") as f:
        m = f.create_dataset("m", data=pattern(SHAPE, np.float32))
        m.attrs["history"] = np.arange(100000, dtype=np.int64)
        m.attrs["text"] = "x" * 200000
        for k in range(20):
            m.attrs[f"a{k:02d}"] = k
    before = sha(src)
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--quiet"), OK)
    attrs = transposed(src, "/m", f"{d}/out.h5", "/m")
    check(np.array_equal(attrs["history"], np.arange(100000)), "the large attribute was not copied")
    check(attrs["text"] == "x" * 200000 and all(attrs[f"a{k:02d}"] == k for k in range(20)), "attributes lost")
    check(sha(src) == before, "the input changed")
    left(d, ["in.h5", "out.h5"])


def case_virtual_dataset(d):
    a = pattern((12, 10), np.float32)
    lay = h5py.VirtualLayout(shape=(12, 10), dtype=np.float32)
    for k, rows in enumerate((slice(0, 5), slice(5, 12))):
        make(f"{d}/src{k}.h5", a[rows], dset="d")
        lay[rows] = h5py.VirtualSource(f"{d}/src{k}.h5", "d", shape=a[rows].shape)
    with h5py.File(f"{d}/vds.h5", "w") as f:
        f.create_virtual_dataset("v", lay)
    before = [sha(f"{d}/{n}") for n in ("vds.h5", "src0.h5", "src1.h5")]
    expect(run("transpose", f"{d}/vds.h5:/v", f"{d}/out.h5:/v", "--quiet"), OK)
    transposed(f"{d}/vds.h5", "/v", f"{d}/out.h5", "/v")
    check([sha(f"{d}/{n}") for n in ("vds.h5", "src0.h5", "src1.h5")] == before, "an input changed")
    left(d, ["vds.h5", "src0.h5", "src1.h5", "out.h5"])


# ---------------------------------------------------------------------------------------------
# 7. Metadata: nothing dropped silently; fill value and attribute order carried over.

def case_reference_attributes(d):
    # Dimension scales as netCDF-4 writes them (DIMENSION_LIST: references to the scale
    # datasets), an object reference, and plain attributes beside them.
    src = f"{d}/in.h5"
    with h5py.File(src, "w") as f:
        t = f.create_dataset("t", data=pattern((20, 30)), fillvalue=-999.0)
        for axis, name in enumerate(("lat", "lon")):
            f.create_dataset(name, data=np.arange(t.shape[axis], dtype="f4")).make_scale(name)
            t.dims[axis].attach_scale(f[name])
        t.attrs["link"] = f["lat"].ref
        t.attrs["units"] = "K"
        t.attrs["_FillValue"] = -999.0
    before = sha(src)
    rc, out, err = run("transpose", f"{src}:/t", f"{d}/out.h5:/t", "--quiet", "--json", f"{d}/s.json")
    expect((rc, out, err), OK)
    with open(f"{d}/s.json") as f:
        summary = json.load(f)
    # DIMENSION_LIST is rebuilt: the output's own copies of the scales, in the swapped order.
    check(summary["dropped_attributes"] == ["link"], f"JSON summary: {summary}")
    lines, _ = messages(err, "warning")
    check(len(lines) == 1 and "'link'" in lines[0] and "DIMENSION_LIST" not in lines[0],
          f"expected one warning naming link:\n{err}")
    attrs = transposed(src, "/t", f"{d}/out.h5", "/t")
    check("link" not in attrs, "a reference attribute was copied (it would point into the input)")
    with h5py.File(f"{d}/out.h5", "r") as f:
        dims = [f["t"].dims[axis][0].name for axis in range(2)]
        check(dims == ["/lon", "/lat"], f"dimension scales of the output: {dims}")
        check(f["t"].dims[0][0].file == f["t"].file, "a dimension scale outside the output file")
    check(attrs["units"] in (b"K", "K") and attrs["_FillValue"] == -999.0, f"attributes lost: {sorted(attrs)}")
    with h5py.File(f"{d}/out.h5", "r") as f:
        check(f["t"].fillvalue == -999.0, "the fill value is not carried over")
    check(sha(src) == before, "the input changed")
    left(d, ["in.h5", "out.h5", "s.json"])


def case_fill_value_and_attribute_order(d):
    src = f"{d}/in.h5"
    names = ["zeta", "alpha", "mid", "beta"]
    with h5py.File(src, "w", track_order=True) as f:
        m = f.create_dataset("m", data=pattern(SHAPE, np.int16), fillvalue=np.int16(-3), track_order=True)
        for k, n in enumerate(names):
            m.attrs[n] = k
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--quiet"), OK)
    transposed(src, "/m", f"{d}/out.h5", "/m")
    with h5py.File(f"{d}/out.h5", "r") as f:
        check(f["m"].fillvalue == -3, f"fill value {f['m'].fillvalue}")
        got = [n for n in f["m"].attrs if not n.startswith("xpose_")]
        check(got == names, f"attribute order {got}, expected {names}")
    left(d, ["in.h5", "out.h5"])


# ---------------------------------------------------------------------------------------------
# 8. Checked before any work.

def refused_before_work(d, argv, code, pattern_, keep=()):
    src = f"{d}/in.h5"
    if not os.path.exists(src):
        make(src, pattern(SHAPE))
    before = sha(src)
    expect(run("transpose", *argv, timeout=60), code, pattern_)
    check(sha(src) == before, "the input changed")
    left(d, ["in.h5", *keep])


def case_json_and_trace_paths(d):
    for opt in ("--json", "--trace"):
        refused_before_work(d, [f"{d}/in.h5:/m", f"{d}/out.h5:/m", opt, "/nonexistent/x.json"], REFUSED,
                            f"{opt} '/nonexistent/x.json': directory '/nonexistent' does not exist")


def case_name_too_long(d):
    name = "o" * 245 + ".h5"  # fits, but not with '.' and '.xpose-partial' around it
    refused_before_work(d, [f"{d}/in.h5:/m", f"{d}/{name}:/m"], REFUSED, "too long")


def case_fifo_input(d):
    os.mkfifo(f"{d}/in.h5")
    expect(run("transpose", f"{d}/in.h5:/m", f"{d}/out.h5:/m", timeout=60), UNREADABLE, "FIFO, not a regular file")
    left(d, ["in.h5"])


def case_force_onto_special_files(d):
    make(f"{d}/in.h5", pattern(SHAPE))
    os.mkfifo(f"{d}/out.h5")
    refused_before_work(d, [f"{d}/in.h5:/m", f"{d}/out.h5:/m", "--force"], REFUSED, "is a FIFO: xpose replaces only regular files",
                        keep=["out.h5"])
    check(stat.S_ISFIFO(os.lstat(f"{d}/out.h5").st_mode), "the FIFO was replaced")
    os.remove(f"{d}/out.h5")
    if os.geteuid() == 0:  # a character device (the same numbers as /dev/null)
        os.mknod(f"{d}/out.h5", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        refused_before_work(d, [f"{d}/in.h5:/m", f"{d}/out.h5:/m", "--force"], REFUSED, "character device",
                            keep=["out.h5"])
        check(stat.S_ISCHR(os.lstat(f"{d}/out.h5").st_mode), "the device was replaced")


def case_force_keeps_mode(d):
    src = f"{d}/in.h5"
    make(src, pattern(SHAPE))
    with open(f"{d}/out.h5", "w") as f:
        f.write("old\n")
    os.chmod(f"{d}/out.h5", 0o600)
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--force", "--quiet"), OK)
    transposed(src, "/m", f"{d}/out.h5", "/m")
    mode = stat.S_IMODE(os.stat(f"{d}/out.h5").st_mode)
    check(mode == 0o600, f"the replaced file's mode is {oct(mode)}, was 0o600")
    left(d, ["in.h5", "out.h5"])


def case_size_overflow(d):
    with h5py.File(f"{d}/in.h5", "w") as f:
        f.create_dataset("m", shape=(2**40, 2**40), dtype="f4", chunks=(1, 1024))
    refused_before_work(d, [f"{d}/in.h5:/m", f"{d}/out.h5:/m"], UNSUPPORTED,
                        r"shape 1099511627776x1099511627776 of 4-byte elements.*does not fit in 64 bits")


def case_numeric_options(d):
    for opt, value in [("--threads", "0"), ("--threads", "-2"), ("--max-stage-width", "0"),
                       ("--progress-interval", "0"), ("--progress-interval", "-1"), ("--host-mem", "0")]:
        refused_before_work(d, [f"{d}/in.h5:/m", f"{d}/out.h5:/m", opt, value], USAGE, re.escape(opt))


def rewrite_case(d, extra):
    src, hold = f"{d}/in.h5", f"{d}/hold"
    make(src, pattern(SHAPE))
    with h5py.File(src, "r") as f:
        offset, nbytes = f["m"].id.get_offset(), f["m"].nbytes
    proc = start("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet", *extra,
                 env={"XPOSE_TEST_HOLD_AT_STAGE": f"1:{hold}"})
    wait_for(hold, proc)
    fd = os.open(src, os.O_WRONLY)  # new values in place: same size, a new modification time
    os.pwrite(fd, pattern(SHAPE, seed=7).tobytes()[: nbytes // 2], offset)
    os.close(fd)
    rewritten = sha(src)
    os.remove(hold)
    expect(finish(proc), IO_FAILURE, r"the input '.*in\.h5' changed during the run \(it was modified\); the output is not committed",
           single_line=False)
    check(sha(src) == rewritten, "xpose changed the input")
    left(d, ["in.h5"])


def case_input_rewritten(d):
    rewrite_case(d, [])


def case_input_rewritten_hdf5_reads(d):
    rewrite_case(d, ["--io", "independent"])


def case_input_rewritten_in_last_stage(d):
    # After the last stage's read only the check at the end can see it.
    src, hold = f"{d}/in.h5", f"{d}/hold"
    make(src, pattern((6, 8)))
    proc = start("transpose", f"{src}:/m", f"{d}/out.h5:/m", "--quiet", env={"XPOSE_TEST_HOLD_AT_STAGE": f"0:{hold}"})
    wait_for(hold, proc)
    os.utime(src, ns=(time.time_ns(), time.time_ns() + 5_000_000_000))
    os.remove(hold)
    expect(finish(proc), IO_FAILURE, r"changed during the run \(it was modified\)")
    left(d, ["in.h5"])


# ---------------------------------------------------------------------------------------------
# 9. Stopping a run under mpirun (README: send SIGUSR1 to mpirun, or SIGTERM to the ranks).

def rank_pids(launcher_pid):
    """The xpose processes under the launcher (Open MPI starts them as its children)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv0 = f.read().split(b"\0")[0]
        except (OSError, IndexError, ValueError):
            continue
        if ppid == launcher_pid and os.path.basename(argv0) == b"xpose":
            pids.append(int(entry))
    return pids


def stop_case(d, send, expected_rc, delay=0.3):
    src, hold = f"{d}/in.h5", f"{d}/hold"
    make(src, pattern(SHAPE))
    before = sha(src)
    proc = start("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet",
                 env={"XPOSE_TEST_HOLD_AT_STAGE": f"2:{hold}"})
    wait_for(hold, proc)
    send(proc)
    time.sleep(delay)  # the signal is delivered while rank 0 holds
    os.remove(hold)
    rc, out, err = finish(proc)
    check(rc == expected_rc, f"exit {rc}, expected {expected_rc}\n{err}")
    if expected_rc == INTERRUPTED:
        _, distinct = messages(err)
        check(len(distinct) == 1 and "rerun with --resume" in distinct[0], f"the stop message:\n{err}")
    left(d, ["in.h5", ".out.h5.xpose-journal", ".out.h5.xpose-partial"])
    expect(run("transpose", f"{src}:/m", f"{d}/out.h5:/m", *WIDTH, "--quiet", "--resume"), OK)
    transposed(src, "/m", f"{d}/out.h5", "/m")
    check(sha(src) == before, "the input changed")
    left(d, ["in.h5", "out.h5"])


def case_sigusr1_to_mpirun(d):
    stop_case(d, lambda p: p.send_signal(signal.SIGUSR1), INTERRUPTED)


def case_sigterm_to_the_ranks(d):
    def send(p):
        pids = rank_pids(p.pid)
        check(len(pids) == ARGS.np, f"found {len(pids)} xpose processes under mpirun, expected {ARGS.np}")
        for pid in pids:
            os.kill(pid, signal.SIGTERM)
    stop_case(d, send, INTERRUPTED)


def case_sigterm_to_mpirun(d):
    # What README documents: Open MPI's mpirun, given SIGTERM, sends the ranks SIGCONT, SIGTERM a
    # second later and SIGKILL a second after that (odls_base_sigkill_timeout), and exits 1
    # whatever they return. A stage longer than that (here: held) is cut off; the run is then
    # resumable as a killed one.
    stop_case(d, lambda p: p.send_signal(signal.SIGTERM), 1, delay=3.0)


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--xpose", required=True)
    parser.add_argument("--np", type=int, default=1)
    parser.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="default: all")
    ARGS = parser.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    failed = 0
    for name in ARGS.case or list(CASES):
        d = tempfile.mkdtemp(prefix=f"xpose-fault-{name}-")
        t0 = time.time()
        try:
            CASES[name](d)
            print(f"PASS {name} (np={ARGS.np}, {time.time() - t0:.1f} s)", flush=True)
        except Failure as e:
            failed += 1
            print(f"FAIL {name} (np={ARGS.np}): {e}", flush=True)
        finally:
            shutil.rmtree(d, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
