"""xpose.DistributedTranspose on host memory: every element of every rank's output against the
transpose of the global array, which every rank computes with NumPy."""
import threading
import time

import numpy as np
import pytest
from conftest import needs_mpi4py, COMM, assert_all, pattern, raises_everywhere

import xpose


def local_input(plan, glob):
    """This rank's rows of the global input (batch axis first where the plan has one)."""
    start, rows = plan.input_offset[-2], plan.local_input_shape[-2]
    return np.ascontiguousarray(glob[..., start:start + rows, :])


def expected_output(plan, glob):
    start, rows = plan.output_offset[-2], plan.local_output_shape[-2]
    return np.swapaxes(glob, -1, -2)[..., start:start + rows, :]


SHAPES = [(1, 1), (1, 9), (9, 1), (7, 5), (5, 7), (64, 48), (3, 5, 4), (1, 6, 2)]
DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int8, np.uint16, np.bool_]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_out_of_place(shape, dtype):
    glob = pattern(shape, dtype)
    with xpose.DistributedTranspose(shape, dtype, planning="estimate") as plan:
        assert plan.ranks == COMM.size and plan.rank == COMM.rank
        x = local_input(plan, glob)
        before = x.copy()
        y = plan.execute(x)
        assert_all(y.shape == plan.local_output_shape and y.dtype == np.dtype(dtype),
                   f"output {y.shape} {y.dtype}")
        assert_all(np.array_equal(y, expected_output(plan, glob)), f"{shape} {dtype}: wrong output")
        assert_all(np.array_equal(x, before), "the input was changed")
        # Into a given output, and again with the same plan.
        out = np.full(plan.local_output_shape, 3, dtype=dtype)
        assert_all(plan.execute(x, out=out) is out and np.array_equal(out, expected_output(plan, glob)),
                   "execute(out=...) wrong")


@pytest.mark.parametrize("shape", [(7, 5), (5, 7), (6, 6), (2, 9, 4)])
def test_in_place(shape):
    glob = pattern(shape, np.complex64)
    with xpose.DistributedTranspose(shape, np.complex64, inplace=True, planning="estimate") as plan:
        x = local_input(plan, glob)
        buffer = np.zeros(plan.local_inplace_size, dtype=np.complex64)
        buffer[:x.size] = x.reshape(-1)
        y = plan.execute(buffer)
        assert_all(y.size == 0 or np.shares_memory(y, buffer), "the in-place output is not a view of the buffer")
        assert_all(np.array_equal(y, expected_output(plan, glob)), f"{shape}: wrong in-place output")


@needs_mpi4py
def test_sub_communicator():
    """Two plans on the two halves of a split communicator, each its own global array."""
    color = COMM.rank % 2
    sub = COMM.Split(color)
    try:
        shape = (11 + color, 6)
        glob = pattern(shape, np.float64, seed=color)
        with xpose.DistributedTranspose(shape, np.float64, comm=sub) as plan:
            assert plan.ranks == sub.size
            y = plan.execute(local_input(plan, glob))
            assert_all(np.array_equal(y, expected_output(plan, glob)), "wrong output on a sub-communicator")
    finally:
        sub.Free()


class DlpackOnly:
    """An array known only by __dlpack__ (as a library other than NumPy would hand one over)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_dlpack_host_arrays():
    """Host arrays of another library go through DLPack, written in place, no copy."""
    shape = (13, 10)
    glob = pattern(shape, np.float32)
    with xpose.DistributedTranspose(shape, np.float32, planning="estimate") as plan:
        out = np.zeros(plan.local_output_shape, np.float32)
        result = plan.execute(DlpackOnly(local_input(plan, glob)), out=DlpackOnly(out))
        assert_all(result.array is out and np.array_equal(out, expected_output(plan, glob)),
                   "wrong output through DLPack")
        # A strided view cannot be handed over as is.
        wide = np.zeros((plan.local_input_shape[0], 2 * shape[1]), np.float32)
        raises_everywhere(xpose.UsageError,
                          lambda: plan.execute(DlpackOnly(wide[:, ::2]), out=DlpackOnly(out)))
        # The consumed capsule's memory is released: the arrays stay usable.
        out[...] = 0
        plan.execute(DlpackOnly(local_input(plan, glob)), out=DlpackOnly(out))
        assert_all(np.array_equal(out, expected_output(plan, glob)), "second DLPack run wrong")


def test_errors_agreed_on_every_rank():
    shape = (8, 6)
    glob = pattern(shape, np.float64)
    with xpose.DistributedTranspose(shape, np.float64, planning="estimate") as plan:
        x = local_input(plan, glob)
        last = COMM.size - 1
        # One rank alone passes a wrong array: every rank raises the same error.
        bad = np.zeros((x.shape[0] + 1, x.shape[1])) if COMM.rank == last else x
        message = raises_everywhere(xpose.UsageError, lambda: plan.execute(bad))
        assert_all(f"rank {last}" in message and "shape" in message, message)
        wrong_type = x.astype(np.float32) if COMM.rank == last else x
        raises_everywhere(xpose.UsageError, lambda: plan.execute(wrong_type))
        strided = np.zeros((x.shape[0], 2 * x.shape[1]))[:, ::2] if COMM.rank == last else x
        raises_everywhere(xpose.UsageError, lambda: plan.execute(strided))
        read_only = np.zeros(plan.local_output_shape)
        read_only.flags.writeable = COMM.rank != last
        raises_everywhere(xpose.UsageError, lambda: plan.execute(x, out=read_only))
        # A failure before the arrays reach xpose (here: no array at all) reaches every rank too.
        raises_everywhere(xpose.UsageError, lambda: plan.execute(x, out=[0.0] if COMM.rank == 0 else None))
        # The plan still works after all that.
        assert_all(np.array_equal(plan.execute(x), expected_output(plan, glob)), "plan broken by errors")
    raises_everywhere(xpose.UsageError, lambda: plan.execute(x))  # closed
    with pytest.raises(ValueError):  # UsageError is a ValueError too
        xpose.DistributedTranspose(shape, np.float64, memory="disk")
    for bad_args in [dict(shape=(0, 4)), dict(shape=(4,)), dict(transport="carrier-pigeon"),
                     dict(schedule="never"), dict(planning="guess")]:
        args = dict(shape=shape, dtype=np.float64)
        args.update(bad_args)
        raises_everywhere(xpose.UsageError, lambda: xpose.DistributedTranspose(**args))
    if not xpose.has_cuda:
        message = raises_everywhere(xpose.UsageError,
                                    lambda: xpose.DistributedTranspose(shape, np.float64, memory="device"))
        assert_all("built without" in message, message)
        raises_everywhere(xpose.UsageError,
                          lambda: xpose.DistributedTranspose(shape, np.float64, transport="nccl"))
    with pytest.raises(xpose.UsageError, match="mpi4py communicator"):  # also without mpi4py
        xpose.DistributedTranspose(shape, np.float64, comm="world")


def test_gil_released_while_waiting():
    """A rank waiting in execute for a late rank lets its other Python threads run."""
    if COMM.size < 2:
        pytest.skip("needs a second rank to wait for")
    shape = (64, 64)
    glob = pattern(shape, np.float64)
    with xpose.DistributedTranspose(shape, np.float64, planning="estimate") as plan:
        x = local_input(plan, glob)
        result = {}
        if COMM.rank == 0:
            worker = threading.Thread(target=lambda: result.update(y=plan.execute(x)))
            worker.start()
            spins, end = 0, time.monotonic() + 0.5
            while time.monotonic() < end:  # the worker waits for rank 1 all this time
                spins += 1
            worker.join()
            assert_all(spins > 1000 and "y" in result, f"main thread ran {spins} loops")
        else:
            if COMM.rank == 1:
                time.sleep(1.0)
            result["y"] = plan.execute(x)
            assert_all(True)
        assert_all(np.array_equal(result["y"], expected_output(plan, glob)), "wrong output")
