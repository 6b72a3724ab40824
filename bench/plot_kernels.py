#!/usr/bin/env python3
"""Bar chart of a bench_kernels CSV: GB/s per kernel and shape, with the cudaMemcpy D2D ceiling
measured in the same run drawn over each group.

    bench_kernels --csv kernels.csv
    python3 bench/plot_kernels.py kernels.csv bench/kernels.png [--title "NVIDIA H100 ..."]

Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""
import argparse
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The rows drawn, in this order: the library kernels and the baselines.
KERNELS = [
    ("xpose", "xpose out-of-place", "#1f77b4"),
    ("xpose-inplace", "xpose in place (triangular)", "#2ca02c"),
    ("cublas-geam", "cuBLAS geam", "#ff7f0e"),
    ("seed", "seed kernel (32x33 tile)", "#9467bd"),
    ("classic-inplace", "classic in place (all tiles)", "#8c564b"),
    ("naive", "naive (uncoalesced writes)", "#7f7f7f"),
]
TYPES = ["f32", "f64", "c128"]


def load(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                continue
            r["gbps"] = float(r["gbps"])
            rows.append(r)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("png")
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    rows = load(args.csv)

    # First row of each (type, shape, kernel): for geam with two routines (D and C for 8-byte
    # elements) that is the first one the bench ran.
    best = {}
    memcpy = {}
    shapes = {}
    for r in rows:
        key = (r["type"], r["shape"])
        if r["kernel"] == "memcpy":
            memcpy.setdefault(key, r["gbps"])
        elif (key, r["kernel"]) not in best:
            best[(key, r["kernel"])] = r["gbps"]
        if r["type"] in TYPES and r["shape"] != "131072x131072":
            shapes.setdefault(r["type"], [])
            if r["shape"] not in shapes[r["type"]]:
                shapes[r["type"]].append(r["shape"])

    types = [t for t in TYPES if t in shapes]
    if not types:
        sys.exit("no f32/f64/c128 rows in " + args.csv)
    fig, axes = plt.subplots(len(types), 1, figsize=(12, 3.6 * len(types)), squeeze=False)
    width = 0.8 / len(KERNELS)
    for ax, t in zip(axes[:, 0], types):
        for si, shape in enumerate(shapes[t]):
            key = (t, shape)
            for ki, (k, label, color) in enumerate(KERNELS):
                v = best.get((key, k))
                if v is None:
                    continue
                x = si - 0.4 + width * (ki + 0.5)
                ax.bar(x, v, width, color=color, label=label if si == 0 else None)
            if key in memcpy:
                ax.hlines(memcpy[key], si - 0.45, si + 0.45, colors="k", linestyles="--",
                          label="cudaMemcpy D2D" if si == 0 else None)
                x_main = si - 0.4 + width * 0.5
                if (key, "xpose") in best:
                    ratio = best[(key, "xpose")] / memcpy[key]
                    ax.text(x_main, 120, f"{ratio:.3f}", ha="center", va="bottom", fontsize=7,
                            rotation=90, color="white")
        ax.set_xticks(range(len(shapes[t])))
        ax.set_xticklabels(shapes[t])
        ax.set_ylabel(f"{t}: GB/s (2 x bytes / time)")
        # Room above the tallest bar or ceiling of the panel, in steps of 500 GB/s (a fixed
        # 3500, the H100's scale, clipped every bar and hid the ceiling on an H200).
        drawn = [(t, shape) for shape in shapes[t]]
        top = max([v for (key, _), v in best.items() if key in drawn] +
                  [v for key, v in memcpy.items() if key in drawn])
        ax.set_ylim(0, 500 * math.ceil(top * 1.08 / 500))
        ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.965), ncol=4,
               fontsize=8, frameon=False)
    title = args.title or "bench_kernels"
    fig.suptitle(title + "   (numbers in the blue bars: xpose out-of-place / memcpy)", y=0.995,
                 fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.91))
    fig.savefig(args.png, dpi=110)
    print("wrote", args.png)


if __name__ == "__main__":
    main()
