"""What xpose needs to know of NumPy, CuPy and PyTorch: element types, CUDA streams, and
allocation of outputs. Nothing here imports CuPy or PyTorch unless an array of theirs is given."""

import sys


def _module_of(obj):
    return type(obj).__module__.split(".")[0]


class ElementType:
    """A plan's element type: NumPy's kind letter and size, and the dtype it came from."""

    def __init__(self, dtype):
        if _module_of(dtype) == "torch":
            torch = sys.modules["torch"]
            size = torch.empty((), dtype=dtype).element_size()
            name = str(dtype).split(".")[-1]
            if dtype.is_complex:
                kind = "c"
            elif dtype.is_floating_point:
                kind = "f"
            elif dtype == torch.bool:
                kind = "b"
            else:
                kind = "u" if name.startswith("uint") else "i"
            self.kind, self.itemsize, self.name, self.dtype = kind, size, name, dtype
            return
        import numpy as np

        d = np.dtype(dtype)
        if d.hasobject or d.itemsize not in (1, 2, 4, 8, 16):
            raise TypeError(f"dtype {d}: elements of 1, 2, 4, 8 or 16 bytes only, no objects")
        kind = d.kind if d.kind in "fciub" and d.fields is None else "V"
        self.kind, self.itemsize, self.name, self.dtype = kind, d.itemsize, str(d), d


def stream_pointer(array, stream):
    """The CUDA stream (as an integer; 0 is the legacy default stream) that execute orders its
    work on: `stream` where given (an integer, a CuPy or a PyTorch stream), else the current
    stream of the array's library on the array's device."""
    if stream is not None:
        for attribute in ("ptr", "cuda_stream"):
            if hasattr(stream, attribute):
                return int(getattr(stream, attribute))
        return int(stream)
    library = _module_of(array)
    if library == "torch":
        return sys.modules["torch"].cuda.current_stream(array.device).cuda_stream
    if library == "cupy":
        cupy = sys.modules["cupy"]
        with array.device:
            return cupy.cuda.get_current_stream().ptr
    return 0


def dlpack_stream_argument(stream):
    """DLPack's name for a CUDA stream: 1 is the legacy default stream, 0 is not allowed."""
    return 1 if stream == 0 else stream


def empty_like(like, shape):
    """An uninitialised array of `shape` from the library and device of `like`."""
    library = _module_of(like)
    if library == "torch":
        return sys.modules["torch"].empty(shape, dtype=like.dtype, device=like.device)
    if library == "cupy":
        cupy = sys.modules["cupy"]
        with like.device:
            return cupy.empty(shape, dtype=like.dtype)
    namespace = getattr(like, "__array_namespace__", None)
    if namespace is not None:
        return namespace().empty(shape, dtype=like.dtype, device=like.device)
    raise TypeError(f"cannot allocate an output like a {type(like).__name__}: pass out=")


def flat_view(buffer, count, shape):
    """The first `count` elements of a contiguous buffer, as an array of `shape` (a view)."""
    return buffer.reshape(-1)[:count].reshape(shape)
