"""xpose without mpi4py (run under mpiexec): comm=None is MPI_COMM_WORLD, xpose starts MPI and
finalizes it at exit, closing the plans still open first. Each rank checks its own results."""
import os
import sys

import h5py
import numpy as np

import xpose

shape = (23, 17)
glob = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) * 3 + 1
plan = xpose.DistributedTranspose(shape, np.float64, planning="estimate")  # starts MPI
start, rows = plan.input_offset[0], plan.local_input_shape[0]
y = plan.execute(glob[start:start + rows].copy())
start = plan.output_offset[0]
assert np.array_equal(y, glob.T[start:start + y.shape[0]]), "wrong in-memory output"

# The file transpose: rank 0 writes the input; an execute is the barrier before the others read.
work = os.path.abspath(f"without_mpi4py.{plan.ranks}")
if plan.rank == 0:
    os.makedirs(work, exist_ok=True)
    with h5py.File(f"{work}/in.h5", "w") as f:
        f["m"] = glob
plan.execute(glob[plan.input_offset[0]:plan.input_offset[0] + rows].copy())
summary = xpose.transpose(f"{work}/in.h5:/m", f"{work}/out.h5:/m", force=True)
assert summary["ranks"] == plan.ranks and summary["shape"] == list(shape), summary
if plan.rank == 0:
    with h5py.File(f"{work}/out.h5", "r") as f:
        assert np.array_equal(f["m"][...], glob.T), "wrong output file"
try:
    xpose.transpose(f"{work}/missing.h5:/m", f"{work}/out2.h5:/m")
    raise AssertionError("a missing input was not reported")
except xpose.InputNotFoundError as e:
    assert e.exit_code == 3, e.exit_code

assert "mpi4py" not in sys.modules, "mpi4py was imported"
print(f"rank {plan.rank}: ok")  # `plan` stays open: closed at exit, before MPI_Finalize
