#!/usr/bin/env python3
"""PyTorch doing xpose's in-memory distributed transpose, for bench_inmem_transpose to be
compared with: each of P ranks (one GPU each) holds R/P rows of an R x C complex64 matrix; it
packs the column blocks for every rank, exchanges them with torch.distributed.all_to_all_single
over NCCL, and transposes the received blocks locally into its C/P rows of the C x R result.

No torchrun needed. Either it spawns one process per GPU itself (torch.multiprocessing):

    python3 bench/torch_inmem_transpose.py [--ranks 2] [--rows 32768] [--cols 32768] [--reps 10]

or it runs under mpirun, one process per rank, reading OMPI_COMM_WORLD_RANK/SIZE (or PMI_RANK /
PMI_SIZE, or RANK / WORLD_SIZE), with MASTER_ADDR/MASTER_PORT (default 127.0.0.1:29533).

Prints the median over --reps runs (after warm-up) of the slowest rank's time (CUDA events),
checks every element of the result against the formula that filled the input, and ends with a
line "RESULT torch_ms=<median> ok=<0|1>".
"""

import argparse
import os
import socket
import statistics
import sys


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(rank, world, args, init_method):
    import torch
    import torch.distributed as dist

    torch.cuda.set_device(rank % torch.cuda.device_count())
    dev = torch.device("cuda", torch.cuda.current_device())
    try:  # device_id (torch >= 2.3) binds the NCCL communicator to this GPU up front
        dist.init_process_group("nccl", init_method=init_method, rank=rank, world_size=world,
                                device_id=dev)
    except TypeError:
        dist.init_process_group("nccl", init_method=init_method, rank=rank, world_size=world)
    R, C, P = args.rows, args.cols, world
    if R % P or C % P:
        raise SystemExit("rows and cols must divide by the rank count")
    n, m = R // P, C // P

    # Element (i, j) of the input is (i + 1) + (j + 1) i, exact in float32 below 2^24.
    rows = torch.arange(rank * n + 1, (rank + 1) * n + 1, device=dev, dtype=torch.float32)
    cols = torch.arange(1, C + 1, device=dev, dtype=torch.float32)
    x = torch.complex(rows[:, None].expand(n, C), cols[None, :].expand(n, C)).contiguous()

    def transpose(x):
        # pack: block p holds this rank's rows, columns of rank p (P x n x m)
        packed = x.view(n, P, m).permute(1, 0, 2).contiguous()
        recv = torch.empty_like(packed)
        dist.all_to_all_single(torch.view_as_real(recv), torch.view_as_real(packed))
        # recv[p] = rows of rank p, my columns: out[b, p*n + a] = recv[p, a, b]
        return recv.permute(2, 0, 1).reshape(m, R)

    out = None
    for _ in range(max(1, args.warmup)):
        out = transpose(x)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(args.reps):
        del out
        torch.cuda.synchronize()
        dist.barrier()
        start.record()
        out = transpose(x)
        stop.record()
        stop.synchronize()
        t = torch.tensor([start.elapsed_time(stop)], device=dev)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        times.append(t.item())

    # Output row b (global row rank*m + b) column k holds input element (k, rank*m + b).
    want_re = torch.arange(1, R + 1, device=dev, dtype=torch.float32)[None, :].expand(m, R)
    want_im = torch.arange(rank * m + 1, (rank + 1) * m + 1, device=dev,
                           dtype=torch.float32)[:, None].expand(m, R)
    ok = torch.equal(out.real, want_re) and torch.equal(out.imag, want_im)
    flag = torch.tensor([1 if ok else 0], device=dev)
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)
    ok = bool(flag.item())
    if rank == 0:
        med = statistics.median(times)
        gib = n * C * 8 / 2**30
        print(f"torch all_to_all_single transpose {R} x {C} complex64 on {P} GPU(s) "
              f"({torch.cuda.get_device_name(dev)}, torch {torch.__version__}, "
              f"NCCL {torch.cuda.nccl.version()}): {gib:.2f} GiB per rank, "
              f"median {med:.3f} ms of {args.reps} (min {min(times):.3f}), "
              f"{'verified' if ok else 'WRONG RESULT'}")
        print(f"RESULT torch_ms={med:.4f} ok={int(ok)}", flush=True)
    dist.barrier()
    dist.destroy_process_group()
    if not ok:
        raise SystemExit(8)


def launched_rank():
    """(rank, size) from an MPI launcher or torch-style variables, or None."""
    for r, s in (("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"), ("PMI_RANK", "PMI_SIZE"),
                 ("RANK", "WORLD_SIZE")):
        if r in os.environ and s in os.environ:
            return int(os.environ[r]), int(os.environ[s])
    return None


def spawned(rank, world, args, init_method):
    worker(rank, world, args, init_method)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=32768)
    ap.add_argument("--cols", type=int, default=32768)
    ap.add_argument("--ranks", type=int, default=0, help="processes to spawn (0: min(2, GPUs))")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    args = ap.parse_args()
    try:
        import torch
        import torch.multiprocessing as mp
    except ImportError as e:
        print(f"torch is not available ({e})", file=sys.stderr)
        print("RESULT torch_ms=-1 ok=0")
        return 3
    if not torch.cuda.is_available():
        print("torch sees no GPU", file=sys.stderr)
        print("RESULT torch_ms=-1 ok=0")
        return 3
    launched = launched_rank()
    if launched:
        rank, world = launched
        addr = os.environ.get("MASTER_ADDR", "127.0.0.1")
        port = os.environ.get("MASTER_PORT", "29533")
        worker(rank, world, args, f"tcp://{addr}:{port}")
        return 0
    world = args.ranks or min(2, torch.cuda.device_count())
    init = f"tcp://127.0.0.1:{free_port()}"
    mp.spawn(spawned, args=(world, args, init), nprocs=world, join=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
