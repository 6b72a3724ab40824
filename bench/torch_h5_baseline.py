#!/usr/bin/env python3
"""What users do today, timed end to end: h5py reads the whole dataset, PyTorch transposes it on
the GPU (x.cuda().t().contiguous()), h5py writes the result.

    python3 bench/torch_h5_baseline.py IN.h5:/path OUT.h5:/path
"""
import sys
import time

import h5py
import torch


def split(ref):
    f, _, p = ref.rpartition(":")
    return f, p


def main():
    (src, src_path), (dst, dst_path) = split(sys.argv[1]), split(sys.argv[2])
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # context creation is not the user's transpose
    t0 = time.perf_counter()
    with h5py.File(src, "r") as f:
        a = f[src_path][()]
    t1 = time.perf_counter()
    x = torch.from_numpy(a).cuda()
    y = x.t().contiguous()
    b = y.cpu().numpy()
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    with h5py.File(dst, "w") as f:
        f.create_dataset(dst_path, data=b)
    t3 = time.perf_counter()
    gb = a.nbytes / 1e9
    print(f"h5py+torch {a.shape} {a.dtype} ({gb:.2f} GB): read {t1 - t0:.2f} s, cuda+t+contiguous+cpu "
          f"{t2 - t1:.2f} s, write {t3 - t2:.2f} s, total {t3 - t0:.2f} s")


if __name__ == "__main__":
    main()
