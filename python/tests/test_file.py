"""xpose.transpose, the file transpose: outputs checked with h5py against NumPy's swapaxes of
the input, the summary against the CLI's --json, errors on every rank alike, stop and resume."""
import json
import os
import subprocess
import threading
import time

import h5py
import numpy as np
import pytest
from conftest import COMM, assert_all, pattern, raises_everywhere

import xpose


def write_input(path, data, name="data"):
    if COMM.rank == 0:
        with h5py.File(path, "w") as f:
            f[name] = data
    COMM.Barrier()


def output_matches(path, expected, name="data"):
    ok = True
    if COMM.rank == 0:
        with h5py.File(path, "r") as f:
            got = f[name][...]
        ok = got.dtype == expected.dtype and np.array_equal(got, expected)
    return COMM.bcast(ok)


@pytest.mark.parametrize("shape,dtype", [((37, 53), np.float32), ((3, 20, 9), np.complex128),
                                         ((1, 1), np.int16)])
def test_transpose(shared_tmp, shape, dtype):
    src, dst = os.path.join(shared_tmp, "in.h5"), os.path.join(shared_tmp, "out.h5")
    data = pattern(shape, dtype)
    write_input(src, data)
    summary = xpose.transpose(f"{src}:/data", f"{dst}:/data", host_mem="64MiB")
    assert_all(output_matches(dst, np.swapaxes(data, -1, -2)), "wrong output file")
    assert_all(summary["status"] == "ok" and summary["exit_code"] == 0, str(summary))
    assert_all(summary["shape"] == list(shape) and summary["ranks"] == COMM.size
               and summary["bytes"] == data.nbytes and summary["element_size"] == data.itemsize,
               str(summary))
    stable = {k: v for k, v in summary.items() if k not in ("phases", "wall_seconds")}
    assert_all(stable == COMM.bcast(stable), "ranks return different summaries")
    # The input is never written; force replaces the output.
    again = xpose.transpose(f"{src}:/data", f"{dst}:/data", force=True, backend="cpu")
    assert_all(again["backend"] == "cpu" and output_matches(dst, np.swapaxes(data, -1, -2)), str(again))
    with h5py.File(src, "r") as f:
        assert_all(np.array_equal(f["data"][...], data), "the input changed")


@pytest.mark.parametrize("io", ["collective", "independent"])
def test_io_and_trace(shared_tmp, io):
    """io= is --io: HDF5 and MPI-IO calls of that kind instead of direct reads and writes;
    trace= is --trace: every rank's phase timeline as Chrome trace JSON."""
    src, dst = os.path.join(shared_tmp, "in.h5"), os.path.join(shared_tmp, "out.h5")
    trace = os.path.join(shared_tmp, "trace.json")
    data = pattern((29, 41), np.float32)
    write_input(src, data)
    summary = xpose.transpose(f"{src}:/data", f"{dst}:/data", io=io, trace=trace, force=True)
    assert_all(output_matches(dst, np.swapaxes(data, -1, -2)), f"wrong output with io={io}")
    assert_all(summary["io"] == f"{io} read, {io} write", summary["io"])
    events = []
    if COMM.rank == 0:
        with open(trace) as f:
            events = json.load(f)["traceEvents"]
    pids = COMM.bcast({e["pid"] for e in events if e.get("ph") == "X"})  # timed phases
    assert_all(pids == set(range(COMM.size)), f"trace has the ranks {sorted(pids)}")


@pytest.mark.parametrize("axes", [(2, 0, 1), (1, 0, 2), ("-1", "0", "1")])
def test_axes(shared_tmp, axes):
    """axes= has NumPy's meaning (numbers, as ints or strings, negative ones from the end)."""
    src, dst = os.path.join(shared_tmp, "in.h5"), os.path.join(shared_tmp, "out.h5")
    data = pattern((4, 7, 5), np.float64)
    write_input(src, data)
    xpose.transpose(f"{src}:/data", f"{dst}:/data", axes=axes, force=True)
    assert_all(output_matches(dst, np.transpose(data, [int(a) for a in axes])), f"wrong output for axes={axes}")


def test_summary_is_the_cli_json(shared_tmp):
    """The dict is the document `xpose transpose --json` writes: the same keys, and the same
    values where they do not depend on timing."""
    cli = os.environ.get("XPOSE_CLI")
    if not cli or COMM.size != 1:
        pytest.skip("the CLI runs beside a single rank (XPOSE_CLI unset or several ranks)")
    src = os.path.join(shared_tmp, "in.h5")
    write_input(src, pattern((40, 30), np.float64))
    summary = xpose.transpose(f"{src}:/data", os.path.join(shared_tmp, "py.h5") + ":/data")
    # The CLI as a singleton of its own: the launcher's variables would make it join this job.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMPI_", "PMIX_", "PMI_")) or k.startswith(("OMPI_ALLOW", "OMPI_MCA_btl"))}
    json_path = os.path.join(shared_tmp, "cli.json")
    subprocess.run([cli, "transpose", f"{src}:/data", os.path.join(shared_tmp, "cli.h5") + ":/data",
                    "--quiet", "--json", json_path], env=env, check=True, timeout=120,
                   stdin=subprocess.DEVNULL)
    with open(json_path) as f:
        from_cli = json.load(f)
    assert list(summary) == list(from_cli)
    assert list(summary["phases"]) == list(from_cli["phases"])
    for key in ("command", "status", "exit_code", "shape", "element_size", "bytes", "ranks",
                "backend", "exchange", "stages", "stage_width", "memory_per_rank", "io"):
        assert summary[key] == from_cli[key], key


def test_errors(shared_tmp):
    src, dst = os.path.join(shared_tmp, "in.h5"), os.path.join(shared_tmp, "out.h5")
    data = pattern((6, 4), np.float32)
    write_input(src, data)
    if COMM.rank == 0:
        with h5py.File(os.path.join(shared_tmp, "vec.h5"), "w") as f:
            f["v"] = np.arange(5.0)
        with open(os.path.join(shared_tmp, "text.h5"), "w") as f:
            f.write("not HDF5\n")
    COMM.Barrier()
    cases = [
        (xpose.InputNotFoundError, (f"{shared_tmp}/missing.h5:/data", f"{dst}:/data"), {}),
        (xpose.InputNotFoundError, (f"{src}:/nothing", f"{dst}:/data"), {}),
        (xpose.InputUnreadableError, (f"{shared_tmp}/text.h5:/data", f"{dst}:/data"), {}),
        (xpose.UnsupportedInputError, (f"{shared_tmp}/vec.h5:/v", f"{dst}:/data"), {}),
        (xpose.OutputRefusedError, (f"{src}:/data", f"{src}:/data"), {}),
        (xpose.OutputRefusedError, (f"{src}:/data", f"{shared_tmp}/no/such/dir.h5:/data"), {}),
        (xpose.UsageError, (f"{src}:/data", f"{dst}:/data"), dict(backend="quantum")),
        (xpose.UsageError, (f"{src}:/data", f"{dst}:/data"), dict(exchange="pigeon")),
        (xpose.UsageError, (f"{src}:/data", f"{dst}:/data"), dict(io="sideways")),
        (xpose.UsageError, (f"{src}:/data", f"{dst}:/data"), dict(host_mem=-5)),
        (xpose.UsageError, (f"{src}:/data", f"{dst}:/data"), dict(host_mem="lots")),
        (xpose.UsageError, (f"{src}:/data", f"{dst}:/data"), dict(axes=(1, 1))),
        (xpose.UsageError, ("no-dataset-path", f"{dst}:/data"), {}),
        (xpose.ResourceError, (f"{src}:/data", f"{dst}:/data"), dict(host_mem=16)),
    ]
    for cls, args, kwargs in cases:
        message = raises_everywhere(cls, lambda: xpose.transpose(*args, **kwargs))
        assert_all(message and "\n" not in message, repr(message))
    # An existing output is refused, then replaced with force.
    xpose.transpose(f"{src}:/data", f"{dst}:/data")
    message = raises_everywhere(xpose.OutputRefusedError, lambda: xpose.transpose(f"{src}:/data", f"{dst}:/data"))
    assert_all("exists" in message, message)
    assert_all(xpose.OutputRefusedError.exit_code == 6 and issubclass(xpose.OutputRefusedError, xpose.Error))


def test_interrupted_then_resumed(shared_tmp, monkeypatch):
    """A stop signal after a clean stage raises Interrupted on every rank and keeps the partial
    output; resume=True finishes it, equal to the transpose."""
    src, dst = os.path.join(shared_tmp, "in.h5"), os.path.join(shared_tmp, "out.h5")
    data = pattern((16, 64, 150), np.float32)
    write_input(src, data)
    monkeypatch.setenv("XPOSE_TEST_SIGNAL_AT_STAGE", "1:10")  # rank 0 gets SIGUSR1 after stage 1
    message = raises_everywhere(xpose.Interrupted,
                                lambda: xpose.transpose(f"{src}:/data", f"{dst}:/data", host_mem="256KiB"))
    assert_all("resume" in message, message)
    assert_all(not os.path.exists(dst) and os.path.exists(os.path.join(shared_tmp, ".out.h5.xpose-partial")),
               "no partial output kept")
    monkeypatch.delenv("XPOSE_TEST_SIGNAL_AT_STAGE")
    # Other options are another run: refused.
    raises_everywhere(xpose.ResumeRefusedError,
                      lambda: xpose.transpose(f"{src}:/data", f"{dst}:/data", host_mem="512KiB", resume=True))
    summary = xpose.transpose(f"{src}:/data", f"{dst}:/data", host_mem="256KiB", resume=True)
    assert_all(summary["resumed_at_stage"] >= 2 and summary["stages"] > summary["resumed_at_stage"], str(summary))
    assert_all(output_matches(dst, np.swapaxes(data, -1, -2)), "wrong output after resume")


def test_gil_released_during_file_transpose(shared_tmp):
    """A rank waiting in transpose for a late rank lets its other Python threads run."""
    if COMM.size < 2:
        pytest.skip("needs a second rank to wait for")
    src, dst = os.path.join(shared_tmp, "in.h5"), os.path.join(shared_tmp, "out.h5")
    data = pattern((50, 40), np.float64)
    write_input(src, data)
    result = {}
    if COMM.rank == 0:
        worker = threading.Thread(target=lambda: result.update(s=xpose.transpose(f"{src}:/data", f"{dst}:/data")))
        worker.start()
        spins, end = 0, time.monotonic() + 0.5
        while time.monotonic() < end:  # the worker waits for rank 1 all this time
            spins += 1
        worker.join()
        assert_all(spins > 1000 and "s" in result, f"main thread ran {spins} loops")
    else:
        if COMM.rank == 1:
            time.sleep(1.0)
        xpose.transpose(f"{src}:/data", f"{dst}:/data")
        assert_all(True)
    assert_all(output_matches(dst, np.swapaxes(data, -1, -2)), "wrong output")
