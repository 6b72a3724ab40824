#!/usr/bin/env python3
"""The file transpose from Python against the command: `xpose.transpose` in an
`mpirun -np N python3` job and `mpirun -np N xpose transpose` on the same input, runs
alternating, measured in this run.

    PYTHONPATH=build/python python3 bench/python_file_transpose.py --xpose build/bin/xpose
        [--np 2] [--shape 16384x16384] [--dtype float32] [--reps 5] [--dir /dev/shm]

The input is made once with `xpose generate` (16384 x 16384 float32: 1 GiB). Each run writes a
new output, which is checked (`xpose verify`, every element) after the first run of each kind.
Reported: the median over --reps of the engine's wall time (the summary's wall_seconds: from
the start of the transpose to the output's final name, max over ranks) and of the whole job
(mpirun to exit, start-up of MPI, of Python and of the module included). Ends with
"RESULT python_over_cli_engine=<ratio> python_over_cli_job=<ratio> ok=<0|1>".
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

PYTHON_JOB = """
import json, os, sys, xpose
summary = xpose.transpose(sys.argv[1], sys.argv[2])
if os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0")) == "0":
    with open(sys.argv[3], "w") as f:
        json.dump(summary, f)
"""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--xpose", required=True, help="the xpose command")
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--mpiexec", default="mpirun --oversubscribe")
    p.add_argument("--np", type=int, default=2)
    p.add_argument("--shape", default="16384x16384")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--dir", default="/dev/shm")
    args = p.parse_args()
    launch = shlex.split(args.mpiexec) + ["-np", str(args.np)]
    work = tempfile.mkdtemp(prefix="xpose-bench-", dir=args.dir)
    src = f"{work}/in.h5:/m"
    subprocess.run(launch + [args.xpose, "generate", src, "--shape", args.shape, "--dtype", args.dtype,
                             "--quiet"], check=True)
    out = f"{work}/out.h5"
    commands = {
        "cli": lambda summary: launch + [args.xpose, "transpose", src, f"{out}:/m", "--quiet",
                                         "--json", summary],
        "python": lambda summary: launch + [args.python, "-c", PYTHON_JOB, src, f"{out}:/m", summary],
    }
    engine = {k: [] for k in commands}
    job = {k: [] for k in commands}
    ok = True
    try:
        for rep in range(args.reps):
            for kind, command in commands.items():
                summary = f"{work}/{kind}.json"
                t0 = time.perf_counter()
                subprocess.run(command(summary), check=True, stdin=subprocess.DEVNULL)
                job[kind].append(time.perf_counter() - t0)
                with open(summary) as f:
                    engine[kind].append(json.load(f)["wall_seconds"])
                if rep == 0:
                    ok &= subprocess.run(launch + [args.xpose, "verify", src, f"{out}:/m", "--quiet"]).returncode == 0
                os.remove(out)
    finally:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)
    print(f"{args.shape} {args.dtype} on {args.np} rank(s), {args.dir}, median of {args.reps} (alternating)")
    print(f"{'':8s} {'engine s':>9s} {'job s':>8s}   engine runs")
    for kind in commands:
        runs = " ".join(f"{t:.3f}" for t in engine[kind])
        print(f"{kind:8s} {statistics.median(engine[kind]):9.3f} {statistics.median(job[kind]):8.3f}   {runs}")
    e = statistics.median(engine["python"]) / statistics.median(engine["cli"])
    j = statistics.median(job["python"]) / statistics.median(job["cli"])
    print(f"outputs verified: {'ok' if ok else 'WRONG'}")
    print(f"RESULT python_over_cli_engine={e:.4f} python_over_cli_job={j:.4f} ok={int(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
