"""Shared by the Python tests, which run under `mpiexec -n N python3 -m pytest`: every rank
runs every test, so checks are agreed by all ranks before they are asserted."""
import os
import shutil
import tempfile

import numpy as np
import pytest

import xpose


class SingleRank:
    """COMM's stand-in where mpi4py is missing, or is kept out with XPOSE_TESTS_WITHOUT_MPI4PY=1
    (a machine whose mpi4py was built for another MPI): enough, at one rank, for the tests that
    hand xpose no communicator."""

    rank, size = 0, 1

    def allgather(self, value):
        return [value]

    def bcast(self, value, root=0):
        return value

    def Barrier(self):
        pass


try:
    if os.environ.get("XPOSE_TESTS_WITHOUT_MPI4PY") == "1":
        raise ImportError("XPOSE_TESTS_WITHOUT_MPI4PY=1")
    from mpi4py import MPI

    COMM = MPI.COMM_WORLD
    HAVE_MPI4PY = True
except ImportError:
    if int(os.environ.get("OMPI_COMM_WORLD_SIZE", os.environ.get("PMI_SIZE", "1"))) != 1:
        raise
    COMM, HAVE_MPI4PY = SingleRank(), False

needs_mpi4py = pytest.mark.skipif(not HAVE_MPI4PY, reason="mpi4py is not available")


def pytest_configure(config):
    if COMM.rank != 0:  # one report; other ranks still print their failures
        config.option.verbose = -1


def assert_all(ok, message=""):
    """Asserts `ok` on every rank: a check that fails anywhere fails everywhere, so no rank
    goes on to a collective the others have left."""
    failed = COMM.allgather(None if ok else f"rank {COMM.rank}: {message}")
    failed = [f for f in failed if f]
    assert not failed, "; ".join(failed)


def raises_everywhere(cls, work):
    """Runs `work` on every rank; every rank must raise `cls` with one and the same message.
    Returns the message."""
    got = None
    try:
        work()
    except xpose.Error as e:
        got = (type(e).__name__, e.exit_code, str(e))
    everyone = COMM.allgather(got)
    assert_all(got is not None and got[0] == cls.__name__ and got[1] == cls.exit_code,
               f"expected {cls.__name__}, got {got}")
    assert_all(len({g[2] for g in everyone}) == 1, f"messages differ between ranks: {everyone}")
    return got[2]


def pattern(shape, dtype, seed=1):
    """Values that differ in every element (within the type's range) and are computed alike on
    every rank: the global reference array."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    index = np.arange(n, dtype=np.int64) * 7919 + seed
    if dtype.kind == "c":
        a = ((index % 65521) + 1j * (index // 65521 + 3)).astype(dtype)
    elif dtype.kind == "b":
        a = (index % 2).astype(bool)
    elif dtype.kind in "iu":
        a = (index % (1 << min(8 * dtype.itemsize - 1, 31))).astype(dtype)
    else:
        a = ((index % 65521) + 0.25).astype(dtype)
    return a.reshape(shape)


@pytest.fixture
def shared_tmp():
    """A directory every rank sees (rank 0 makes it and removes it)."""
    path = tempfile.mkdtemp(prefix="xpose-py-") if COMM.rank == 0 else None
    path = COMM.bcast(path)
    yield path
    COMM.Barrier()
    if COMM.rank == 0:
        shutil.rmtree(path, ignore_errors=True)
