#!/usr/bin/env python3
"""What the Python binding costs on the GPU: xpose.DistributedTranspose.execute on a CuPy or
PyTorch array, one rank, against the C++ API on the same plan and the same buffers, the
library's own transpose (`x.T.copy()` / `x.t().contiguous()`) and a device-to-device copy of
the same bytes (the ceiling), all measured in this run.

    PYTHONPATH=build/python python3 bench/python_inmem.py [--library torch|cupy]
        [--rows 16384] [--cols 16384] [--dtype complex64] [--reps 20]

Times are CUDA events on the library's current stream, the median of --reps after two warm-up
runs: "alone" times each call with the GPU idle before it (the call's host work counts), "queued"
divides the time of --reps calls issued back to back. GB/s counts bytes read plus written.
Every output is checked, every element, against the input's transpose on the GPU. Ends with
"RESULT python_over_cpp_alone=<ratio> python_over_cpp_queued=<ratio> ok=<0|1>".
"""
import argparse
import importlib
import importlib.util
import statistics
import sys

import numpy as np

import xpose


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--library", choices=["torch", "cupy"], default=None)
    p.add_argument("--rows", type=int, default=16384)
    p.add_argument("--cols", type=int, default=16384)
    p.add_argument("--dtype", default="complex64")
    p.add_argument("--reps", type=int, default=20)
    args = p.parse_args()

    name = args.library
    if name is None:
        name = "torch" if importlib.util.find_spec("torch") else "cupy"
    lib = importlib.import_module(name)
    dtype = np.dtype(args.dtype)
    shape = (args.rows, args.cols)

    if name == "torch":
        tdtype = getattr(lib, dtype.name)
        x = lib.empty(shape, dtype=tdtype, device="cuda")
        ptr = lambda a: a.data_ptr()  # noqa: E731
        library_transpose, label = (lambda: x.t().contiguous()), "x.t().contiguous()"
        copy = lambda dst, src: dst.view(-1).copy_(src.view(-1))  # noqa: E731
        event = lambda: lib.cuda.Event(enable_timing=True)  # noqa: E731
        elapsed = lambda a, b: a.elapsed_time(b)  # noqa: E731
        equal = lambda a, b: bool(lib.equal(a, b))  # noqa: E731
        transposed = lambda: x.t()  # noqa: E731
        ramp = lib.arange(args.rows * args.cols, device="cuda", dtype=lib.float64)
        x.copy_((ramp % 65521 + 1j * (ramp // 65521)).reshape(shape).to(tdtype) if dtype.kind == "c"
                else (ramp % 65521).reshape(shape).to(tdtype))
        del ramp
    else:
        x = lib.empty(shape, dtype=dtype)
        ptr = lambda a: a.data.ptr  # noqa: E731
        library_transpose, label = (lambda: x.T.copy()), "x.T.copy()"
        copy = lambda dst, src: lib.copyto(dst.reshape(-1), src.reshape(-1))  # noqa: E731
        event = lambda: lib.cuda.Event()  # noqa: E731
        elapsed = lambda a, b: lib.cuda.get_elapsed_time(a, b)  # noqa: E731
        equal = lambda a, b: bool((a == b).all())  # noqa: E731
        transposed = lambda: x.T  # noqa: E731
        ramp = lib.arange(args.rows * args.cols, dtype=lib.float64)
        x[...] = ((ramp % 65521 + 1j * (ramp // 65521)) if dtype.kind == "c" else ramp % 65521).reshape(shape)
        del ramp

    plan = xpose.DistributedTranspose(shape, dtype, memory="device")
    if plan.ranks != 1:
        sys.exit("python_inmem.py measures one rank: run it without mpirun, or with -np 1")
    out = plan.execute(x)
    stream = xpose._arrays.stream_pointer(x, None)
    copy_target = lib.empty_like(x)
    nbytes = 2 * x.nbytes  # read + written

    def timed(fn, alone):
        times = []
        for _ in range(2):
            fn()
        start, end = event(), event()
        if alone:
            for _ in range(args.reps):
                start.record()
                fn()
                end.record()
                end.synchronize()
                times.append(elapsed(start, end))
            return statistics.median(times)
        start.record()
        for _ in range(args.reps):
            fn()
        end.record()
        end.synchronize()
        return elapsed(start, end) / args.reps

    cases = [
        ("copy D2D (ceiling)", lambda: copy(copy_target, x)),
        ("xpose C++ API, same buffers", lambda: plan._plan._execute_pointers(ptr(x), ptr(out), stream, 1)),
        ("xpose Python execute(x, out)", lambda: plan.execute(x, out=out)),
        ("xpose Python execute(x)", lambda: plan.execute(x)),
        (label, library_transpose),
    ]
    results = {}
    for mode in ("alone", "queued"):
        for case, fn in cases:
            if mode == "queued" and case == "xpose C++ API, same buffers":
                fn = lambda: plan._plan._execute_pointers(ptr(x), ptr(out), stream, args.reps)  # noqa: E731
                ms = timed(fn, alone=True) / args.reps
            else:
                ms = timed(fn, alone=(mode == "alone"))
            results[(mode, case)] = ms

    ok = equal(plan.execute(x, out=out), transposed()) and equal(library_transpose(), transposed())
    print(f"{name} {lib.__version__}, xpose {xpose.__version__}, {args.rows} x {args.cols} {dtype.name}, "
          f"{x.nbytes / 2**30:.2f} GiB each way, median of {args.reps}")
    print(f"{'':32s} {'alone ms':>9s} {'GB/s':>7s} {'/copy':>6s}   {'queued ms':>9s} {'GB/s':>7s} {'/copy':>6s}")
    for case, _ in cases:
        row = f"{case:32s}"
        for mode in ("alone", "queued"):
            ms = results[(mode, case)]
            row += f" {ms:9.3f} {nbytes / ms / 1e6:7.0f} {results[(mode, cases[0][0])] / ms:6.3f}  "
        print(row)
    alone = results[("alone", "xpose Python execute(x, out)")] / results[("alone", "xpose C++ API, same buffers")]
    queued = results[("queued", "xpose Python execute(x, out)")] / results[("queued", "xpose C++ API, same buffers")]
    print(f"transport {plan.transport}, schedule {plan.schedule}; every output checked: {'ok' if ok else 'WRONG'}")
    print(f"RESULT python_over_cpp_alone={alone:.4f} python_over_cpp_queued={queued:.4f} ok={int(ok)}")
    plan.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
