"""xpose.DistributedTranspose on GPU memory with CuPy and PyTorch arrays (through DLPack): every
element against NumPy's transpose of the global array. Skipped, on every rank alike, without a
CUDA build of xpose, the library, or a GPU."""
import importlib
import os

import numpy as np
import pytest
from conftest import COMM, assert_all, pattern, raises_everywhere

import xpose


def library_on_gpu(name):
    """The module `name` where every rank has it and sees a GPU (a reason to skip otherwise);
    each rank takes the GPU of its node-local rank."""
    reason = None
    if not xpose.has_cuda:
        reason = "xpose was built without CUDA"
    else:
        try:
            module = importlib.import_module(name)
            count = (module.cuda.runtime.getDeviceCount() if name == "cupy"
                     else module.cuda.device_count())
            if count < 1:
                reason = f"{name} sees no GPU"
        except Exception as e:  # noqa: BLE001 - a missing library or driver skips
            reason = f"{name}: {e}"
    reasons = [r for r in COMM.allgather(reason) if r]
    if reasons:
        pytest.skip(reasons[0])
    local = int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", os.environ.get("SLURM_LOCALID", "0")))
    if name == "cupy":
        module.cuda.Device(local % count).use()
    else:
        module.cuda.set_device(local % count)
    return module


class Arrays:
    """To and from the GPU with either library."""

    def __init__(self, name):
        self.name = name
        self.lib = library_on_gpu(name)

    def to_device(self, a):
        return self.lib.asarray(a) if self.name == "cupy" else self.lib.from_numpy(np.ascontiguousarray(a)).cuda()

    def to_host(self, a):
        return self.lib.asnumpy(a) if self.name == "cupy" else a.cpu().numpy()

    def stream(self):
        return self.lib.cuda.Stream(non_blocking=True) if self.name == "cupy" else self.lib.cuda.Stream()

    def use(self, stream):
        return stream if self.name == "cupy" else self.lib.cuda.stream(stream)


LIBRARIES = ["cupy", "torch"]


def rows_of(glob, offset, count):
    return np.ascontiguousarray(glob[..., offset:offset + count, :])


@pytest.mark.parametrize("name", LIBRARIES)
@pytest.mark.parametrize("shape,dtype", [((257, 129), np.complex64), ((3, 64, 48), np.float32),
                                         ((1, 1), np.float64)])
def test_device_out_of_place(name, shape, dtype):
    arrays = Arrays(name)
    glob = pattern(shape, dtype)
    with xpose.DistributedTranspose(shape, dtype, memory="device", planning="estimate") as plan:
        x = arrays.to_device(rows_of(glob, plan.input_offset[-2], plan.local_input_shape[-2]))
        y = plan.execute(x)
        assert_all(type(y) is type(x), f"output is a {type(y)}")
        expected = rows_of(np.swapaxes(glob, -1, -2), plan.output_offset[-2], plan.local_output_shape[-2])
        assert_all(np.array_equal(arrays.to_host(y), expected), f"{name} {shape}: wrong output")


@pytest.mark.parametrize("name", LIBRARIES)
def test_device_on_a_stream_and_in_place(name):
    """Work ordered on a non-default stream: the input is made on it just before execute, the
    result read on it just after, with no synchronisation between."""
    arrays = Arrays(name)
    shape, dtype = (96, 80), np.complex64
    glob = pattern(shape, dtype)
    with xpose.DistributedTranspose(shape, dtype, memory="device", planning="estimate") as plan:
        stream = arrays.stream()
        expected = rows_of(glob.T, plan.output_offset[0], plan.local_output_shape[0])
        with arrays.use(stream):
            x = arrays.to_device(rows_of(glob, plan.input_offset[0], plan.local_input_shape[0])) * 2
            y = plan.execute(x) * 0.5  # both on `stream`, the library's current one
            host = arrays.to_host(y)
        assert_all(np.array_equal(host, expected), f"{name}: wrong output on a stream")
    with xpose.DistributedTranspose(shape, dtype, memory="device", inplace=True, planning="estimate") as plan:
        x = arrays.to_device(rows_of(glob, plan.input_offset[0], plan.local_input_shape[0]))
        buffer = arrays.to_device(np.zeros(plan.local_inplace_size, dtype))
        buffer[:x.size] = x.reshape(-1)
        y = plan.execute(buffer)
        expected = rows_of(glob.T, plan.output_offset[0], plan.local_output_shape[0])
        assert_all(np.array_equal(arrays.to_host(y), expected), f"{name}: wrong in-place output")


@pytest.mark.parametrize("name", LIBRARIES)
def test_device_errors(name):
    arrays = Arrays(name)
    shape = (16, 12)
    with xpose.DistributedTranspose(shape, np.float32, memory="device", planning="estimate") as plan:
        host = np.zeros(plan.local_input_shape, np.float32)
        message = raises_everywhere(xpose.UsageError, lambda: plan.execute(host))
        assert_all("host memory" in message, message)
        wrong = arrays.to_device(np.zeros(plan.local_input_shape, np.float64))
        raises_everywhere(xpose.UsageError, lambda: plan.execute(wrong))
        strided = arrays.to_device(np.zeros((plan.local_input_shape[0], 24), np.float32))[:, ::2]
        raises_everywhere(xpose.UsageError, lambda: plan.execute(strided))
    with xpose.DistributedTranspose(shape, np.float32, planning="estimate") as plan:
        device = arrays.to_device(np.zeros(plan.local_input_shape, np.float32))
        message = raises_everywhere(xpose.UsageError, lambda: plan.execute(device))
        assert_all("device memory" in message, message)
