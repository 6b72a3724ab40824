"""xpose: distributed, out-of-core transpose of HDF5 matrices, and an in-memory distributed
transpose for FFT pipelines, from Python.

    mpirun -np 4 python3 script.py

- ``xpose.transpose(src, dst, ...)``: the file transpose of ``xpose transpose``; returns the
  run's summary (the document ``--json`` writes) as a dict.
- ``xpose.DistributedTranspose(shape, dtype, ...)``: plan once, ``execute`` many times on NumPy
  arrays (host) or CuPy/PyTorch arrays on the GPU (through DLPack, no copies through the host).

Every call is collective over its communicator (``comm``: an mpi4py communicator, or None for
MPI_COMM_WORLD, which needs no mpi4py). Where MPI is not initialized yet, xpose initializes it
(MPI_THREAD_MULTIPLE) and finalizes it at exit. Errors raise a subclass of ``xpose.Error``,
with the exit code of the ``xpose`` command and its one-line message, on every rank alike.
See docs/python.md.
"""

import atexit
import json
import sys
import weakref

from . import _arrays
from . import _xpose

__version__ = _xpose.version()
#: Whether this xpose was built with CUDA: device memory, the cuda backend.
has_cuda = _xpose.built_with_cuda()

__all__ = [
    "transpose", "DistributedTranspose", "parse_size", "has_cuda", "Error", "InternalError",
    "UsageError", "InputNotFoundError", "InputUnreadableError", "UnsupportedInputError",
    "OutputRefusedError", "IoError", "VerifyMismatchError", "ResourceError", "RuntimeFailure",
    "ResumeRefusedError", "Interrupted",
]


class Error(Exception):
    """Base of xpose's errors: ``str(e)`` is the one-line message, ``e.exit_code`` the exit code
    the ``xpose`` command gives for it (README's table)."""

    exit_code = 1

    def __init__(self, message, exit_code=None):
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


class InternalError(Error):
    """1: a bug or an unexpected condition."""
    exit_code = 1


class UsageError(Error, ValueError):
    """2: bad arguments (also a ValueError)."""
    exit_code = 2


class InputNotFoundError(Error):
    """3: missing file or dataset, or a group where a dataset is expected."""
    exit_code = 3


class InputUnreadableError(Error):
    """4: not an HDF5 file, truncated or corrupt, no permission."""
    exit_code = 4


class UnsupportedInputError(Error):
    """5: rank < 2, variable-length or reference type, element size not 1/2/4/8/16."""
    exit_code = 5


class OutputRefusedError(Error):
    """6: the output exists (pass force=True), equals the input, or its directory is bad."""
    exit_code = 6


class IoError(Error):
    """7: a read or write failed during the run (disk full, I/O error)."""
    exit_code = 7


class VerifyMismatchError(Error):
    """8: the output is not the transpose of the input."""
    exit_code = 8


class ResourceError(Error):
    """9: memory budget too small, or an allocation failed."""
    exit_code = 9


class RuntimeFailure(Error):
    """10: an MPI, CUDA or NCCL failure."""
    exit_code = 10


class ResumeRefusedError(Error):
    """11: resume=True against another input, plan or option set, or a damaged journal."""
    exit_code = 11


class Interrupted(Error):
    """75: stopped by SIGTERM, SIGUSR1 or SIGINT after a clean stage; rerun with resume=True."""
    exit_code = 75


_xpose._register_errors({cls.exit_code: cls for cls in (
    InternalError, UsageError, InputNotFoundError, InputUnreadableError, UnsupportedInputError,
    OutputRefusedError, IoError, VerifyMismatchError, ResourceError, RuntimeFailure,
    ResumeRefusedError, Interrupted)})

parse_size = _xpose.parse_size

# MPI's life in this process. xpose starts MPI at its first collective call unless someone
# (mpi4py) has; it then finalizes MPI at exit. Plans still open at exit are closed first, since
# their communicators must be freed before MPI_Finalize, whoever calls it.
_mpi = {"started": False, "ours": False}
_open_plans = weakref.WeakSet()


def _start_mpi():
    if not _mpi["started"]:
        _mpi["ours"] = _xpose._mpi_initialize()
        _mpi["started"] = True
        atexit.register(_at_exit)


def _at_exit():
    for plan in list(_open_plans):
        plan.close()
    if _mpi["ours"] and _xpose._mpi_active():
        _xpose._mpi_finalize()


def _comm_handle(comm):
    """The MPI_Comm value of an mpi4py communicator (None: MPI_COMM_WORLD, without mpi4py)."""
    if comm is None:
        return None
    MPI = sys.modules.get("mpi4py.MPI")
    if MPI is None or not isinstance(comm, MPI.Comm):
        raise UsageError(f"comm must be an mpi4py communicator or None, not {type(comm).__name__}")
    if comm == MPI.COMM_NULL:
        raise UsageError("comm is MPI.COMM_NULL")
    if not isinstance(comm, MPI.Intracomm):
        raise UsageError("comm must be an intracommunicator")
    if not _mpi.get("same_library"):
        mine = _xpose._mpi_library_version().strip()
        theirs = MPI.Get_library_version().strip()
        if mine != theirs:
            raise UsageError("mpi4py uses another MPI than xpose was built with "
                             f"(mpi4py: {theirs.splitlines()[0]!r}; xpose: {mine.splitlines()[0]!r})")
        _mpi["same_library"] = True
    return MPI._handleof(comm)


def _bytes(value, name):
    if value is None:
        return 0
    if isinstance(value, str):
        value = _xpose.parse_size(value)
    if isinstance(value, bool) or int(value) != value or value <= 0:
        raise UsageError(f"{name} must be a positive number of bytes or a size such as '8GiB'")
    return int(value)


def transpose(src, dst, axes=None, host_mem=None, gpu_mem=None, backend="auto", comm=None,
              resume=False, force=False, progress=False, exchange="auto", io="auto", trace=None):
    """Transposes the HDF5 dataset ``src`` into ``dst`` (both ``"file.h5:/path"``), as
    ``xpose transpose`` does, and returns the run's summary as a dict (shape, bytes, ranks,
    backend, stages, phases with seconds and GB/s, wall_seconds...). Collective over ``comm``.

    axes: the output's axis order (None: the last two axes are swapped, leading ones are a batch).
    host_mem, gpu_mem: stage buffers per rank, in bytes or as '8GiB' (None: the defaults).
    backend: 'cpu', 'cuda' or 'auto'; exchange: 'mpi', 'nccl', 'mpi-device' or 'auto'.
    io: 'auto', 'collective' or 'independent' (as ``--io``); trace: a path for every rank's
    phase timeline (Chrome trace JSON, as ``--trace``).
    resume: continue an interrupted run from its journal; force: replace an existing output.
    progress: rank 0 prints progress to stderr (True, or the seconds between lines in a log).

    Errors found before any output exists raise an xpose.Error subclass on every rank. A failure
    in the middle of a run removes the partial output and ends the whole job (MPI_Abort with the
    exit code): no exception reaches Python then. SIGTERM, SIGUSR1 and SIGINT stop the run after
    a clean stage and raise xpose.Interrupted.
    """
    _start_mpi()
    if axes is not None:
        axes = [str(a) for a in axes]
    interval = 10.0
    if progress is not True and progress is not False:
        interval = float(progress)
    summary = _xpose._transpose_file(
        str(src), str(dst), axes or [], _bytes(host_mem, "host_mem"), _bytes(gpu_mem, "gpu_mem"),
        str(backend), str(exchange), str(io), str(trace or ""), bool(resume), bool(force),
        not progress, interval, _comm_handle(comm))
    return json.loads(summary)


class DistributedTranspose:
    """An in-memory distributed transpose, planned once and executed many times.

    The global array (``shape``: ``(rows, cols)`` or ``(batch, rows, cols)``) is split over the
    ranks by rows, as FFTW-MPI splits it (blocks of ceil(rows/P); trailing ranks may hold fewer
    or none). ``execute`` leaves on every rank its rows of the ``(cols, rows)`` transpose, split
    the same way:

    - input on this rank: ``local_input_shape``, global rows starting at ``input_offset``;
    - output on this rank: ``local_output_shape``, global rows starting at ``output_offset``.

    memory: 'host' (NumPy arrays, CPU kernels) or 'device' (CuPy or PyTorch arrays on the current
    GPU, through DLPack; select the GPU before planning). transport: 'auto', 'mpi', 'mpi-device',
    'nccl' or 'peer'. inplace: execute takes one buffer of ``local_inplace_size`` elements.
    Planning and every execute are collective over ``comm``; close() (or a ``with`` block) frees
    the plan, collectively too.
    """

    def __init__(self, shape, dtype, comm=None, memory="host", transport="auto", inplace=False,
                 *, schedule="auto", planning="measure", wisdom_file=None, threads=0,
                 verbose=False):
        _start_mpi()
        self._type = _arrays.ElementType(dtype)
        self._shape = tuple(int(n) for n in shape)
        self._memory = memory
        self._inplace = bool(inplace)
        self._plan = _xpose._Plan(
            _comm_handle(comm), list(self._shape), self._type.kind, self._type.itemsize, str(memory),
            str(transport), str(schedule), str(planning), str(wisdom_file or ""), int(threads),
            bool(verbose))
        _open_plans.add(self)

    shape = property(lambda self: self._shape, doc="The global input shape.")
    dtype = property(lambda self: self._type.dtype, doc="The element type planned for.")
    memory = property(lambda self: self._memory, doc="'host' or 'device'.")
    inplace = property(lambda self: self._inplace, doc="Whether execute works in one buffer.")
    local_input_shape = property(lambda self: tuple(self._plan.local_input_shape),
                                 doc="Shape of this rank's input.")
    local_output_shape = property(lambda self: tuple(self._plan.local_output_shape),
                                  doc="Shape of this rank's output.")
    input_offset = property(lambda self: tuple(self._plan.input_offset),
                            doc="Global index of this rank's first input element.")
    output_offset = property(lambda self: tuple(self._plan.output_offset),
                             doc="Global index of this rank's first output element "
                                 "(in the transposed array).")
    local_inplace_size = property(lambda self: self._plan.local_inplace_size,
                                  doc="Elements an in-place buffer holds on this rank.")
    rank = property(lambda self: self._plan.rank, doc="This rank in the plan's communicator.")
    ranks = property(lambda self: self._plan.ranks, doc="Ranks of the plan's communicator.")
    transport = property(lambda self: self._plan.transport, doc="The transport chosen.")
    schedule = property(lambda self: self._plan.schedule, doc="The schedule chosen.")
    closed = property(lambda self: self._plan.closed)

    def report(self):
        """How the transport and schedule were chosen, with the measured times."""
        return self._plan.report()

    def execute(self, x, out=None, stream=None):
        """Transposes (collective) and returns the output.

        Out of place: ``x`` has ``local_input_shape``; ``out`` (allocated when None, like ``x``)
        receives ``local_output_shape``. In place: ``x`` holds at least ``local_inplace_size``
        elements, its first ones the input; the returned view of ``x`` is the output.

        On the device, the work is ordered on ``stream`` (a CuPy or PyTorch stream, or a
        cudaStream_t as an integer), by default the current stream of the array's library, as a
        kernel of that library would be; the arrays pass through DLPack, never through the host.
        """
        if self._plan.closed:
            raise UsageError("DistributedTranspose: the plan is closed")
        try:
            work = self._prepare(x, out, stream)
        except Exception as e:  # noqa: BLE001 - every rank must hear of a local failure
            message = str(e) if isinstance(e, Error) else f"{type(e).__name__}: {e}"
            try:
                self._plan.fail(message)
            except Error as agreed:
                raise agreed from e
        return work()

    def _prepare(self, x, out, stream):
        """Checks and converts the arguments on this rank alone; returns the collective work."""
        plan, shape_out = self._plan, self.local_output_shape
        if self._inplace and out is not None:
            raise UsageError("execute: out is not taken by an in-place plan")

        def output_of_buffer():
            return _arrays.flat_view(x, _count(shape_out), shape_out)

        import numpy as np  # here, not at import: a job of file transposes starts without it

        if self._memory == "host" and (isinstance(x, np.ndarray) or not hasattr(x, "__dlpack__")):
            x = np.asarray(x)
            if self._inplace:
                def work():
                    plan.execute_host_inplace(x)
                    return output_of_buffer()
                return work
            if out is None:
                out = np.empty(shape_out, dtype=x.dtype)
            elif not isinstance(out, np.ndarray):
                raise UsageError(f"execute: out must be a NumPy array, not {type(out).__name__}")

            def work():
                plan.execute_host(x, out)
                return out
            return work

        # Any other array through DLPack: CuPy or PyTorch on the GPU, PyTorch on the host.
        s = _arrays.stream_pointer(x, stream) if self._memory == "device" else 0

        def capsule(array):
            # Only CUDA memory takes a stream (NumPy refuses one); the library then says where
            # an array in the wrong memory lives.
            if self._memory == "device" and _arrays.in_cuda_memory(array):
                return array.__dlpack__(stream=_arrays.dlpack_stream_argument(s))
            return array.__dlpack__()

        if self._inplace:
            buffer = capsule(x)

            def work():
                plan.execute_dlpack_inplace(buffer, s)
                return output_of_buffer()
            return work
        if out is None:
            out = _arrays.empty_like(x, shape_out)
        a, b = capsule(x), capsule(out)

        def work():
            plan.execute_dlpack(a, b, s)
            return out
        return work

    def close(self):
        """Frees the plan (collective). Further executes raise UsageError."""
        self._plan.close()
        _open_plans.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = "closed" if self.closed else f"rank {self.rank} of {self.ranks}"
        return (f"xpose.DistributedTranspose(shape={self._shape}, dtype={self._type.name}, "
                f"memory={self._memory!r}, {state})")


def _count(shape):
    n = 1
    for e in shape:
        n *= e
    return n
