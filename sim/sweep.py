#!/usr/bin/env python3
"""xpose's stage exchange on simulated clusters (SimGrid SMPI): sweeps, the ctest check, the model fit.

  sweep.py run   --out DIR [--platforms ...] [--ranks 64,256,1024,4096] [--cases weak,strong] ...
  sweep.py report DIR          table (DIR/table.md) and chart (DIR/scaling.png) from DIR/results.jsonl
  sweep.py fit DIR             the planner's ExchangeModel fitted to DIR/results.jsonl
  sweep.py check --sim PATH    the ctest: every element of small unshared runs, sampling accuracy

Each run is one smpirun of xpose_exchange_sim: one stage of a transpose planned by xpose's planner,
exchanged by xpose's own exchange code (mpi-pairwise: the flat pairwise rounds; mpi-node: the
node-aware exchange), or by MPI_Alltoall with one of SMPI's built-in algorithms (smpi:pair, ...).

Cases: weak = a square float32 matrix sized so each rank's stage holds 1 GiB (N = sqrt(P x 2^28));
strong = 131072^2 float32 (64 GiB) with the planner's default stage buffer cap (512 MiB).

SMPI settings (docs/scaling.md says why): network factors 1 (smpi/lat-factor, smpi/bw-factor: the
platform's numbers are the network's), no TCP cross traffic, no benchmarking of the host's own CPU
time, buffers folded (shared-malloc:local; the data is not real then), and copies through node
memory charged at --copy-bw.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORMS = ["fat-tree-1to1", "fat-tree-4to1", "torus", "dragonfly", "dragonfly-8g"]
OWN = ["mpi-pairwise", "mpi-node"]
SMPI_ALGORITHMS = ["pair", "basic_linear", "ompi"]
NODES_PER_PLATFORM = 1024

COMMON_CFG = [
    "--cfg=smpi/simulate-computation:no",
    "--cfg=smpi/lat-factor:0:1",
    "--cfg=smpi/bw-factor:0:1",
    # No TCP acknowledgements flowing back (an HPC network has none); halves the simulated flows.
    "--cfg=network/crosstraffic:0",
    "--cfg=smpi/privatization:no",
    # SMPI 3.32's default MPI_Allgather costs minutes of host time at 128 ranks; mpich's does not.
    "--cfg=smpi/allgather:mpich",
    "--log=root.thres:warning",
]
FOLDED_CFG = ["--cfg=smpi/shared-malloc:local", "--cfg=smpi/auto-shared-malloc-thresh:4096"]


def hostfile(path, nodes, per_node):
    with open(path, "w") as f:
        for i in range(nodes):
            f.write(f"node-{i}:{per_node}\n")


def rss_of_tree(pid):
    """Resident bytes of a process and its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError):
            pass
    return total


def simulate(sim, platform, ranks, per_node, args, folded=True, alltoall=None, timeout=1800,
             max_rss=6 << 30, copy_bw=10e9):
    """One smpirun; returns the program's JSON line as a dict plus host seconds and peak RSS, or a
    dict with 'error' when it fails, runs past `timeout` or past `max_rss`."""
    nodes = -(-ranks // per_node)
    if nodes > NODES_PER_PLATFORM:
        return {"error": f"{nodes} nodes > the platform's {NODES_PER_PLATFORM}"}
    with tempfile.TemporaryDirectory() as tmp:
        hosts = os.path.join(tmp, "hosts")
        hostfile(hosts, nodes, per_node)
        cfg = COMMON_CFG + (FOLDED_CFG if folded else [])
        if alltoall:
            cfg.append(f"--cfg=smpi/alltoall:{alltoall}")
        cmd = ["smpirun", "-np", str(ranks), "-platform", os.path.join(HERE, "platforms", platform + ".xml"),
               "-hostfile", hosts] + cfg + [os.path.abspath(sim), "--copy-bw", str(copy_bw)] + args
        t0 = time.time()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True, cwd=tmp, start_new_session=True)
        peak, why = 0, None

        def watch():
            nonlocal peak, why
            while proc.poll() is None:
                rss = rss_of_tree(proc.pid)
                peak = max(peak, rss)
                if rss > max_rss or time.time() - t0 > timeout:
                    why = f"stopped at {rss / 2**30:.1f} GiB resident" if rss > max_rss else f"stopped after {timeout} s"
                    os.killpg(proc.pid, 9)
                    return
                time.sleep(0.5)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        out, err = proc.communicate()
        watcher.join()
        host_s = time.time() - t0
    result = None
    for line in out.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
    if result is None or proc.returncode != 0:
        lines = [l for l in err.strip().splitlines() if "CRITICAL" in l or "xbt_assert" in l or "error" in l.lower()]
        tail = (lines or err.strip().splitlines() or ["no output"])[-1][:300]
        return {"error": why or f"exit {proc.returncode}: {tail}", "host_s": round(host_s, 1),
                "peak_rss": peak}
    result["host_s"] = round(host_s, 1)
    result["peak_rss"] = peak
    return result


def case_args(case):
    if case == "weak":
        return ["--weak", "1GiB", "--max-buffer", "1GiB"]
    if case == "strong":
        return ["--shape", "131072,131072"]
    raise ValueError(case)


def algorithm_runs(algorithms):
    for name in algorithms:
        if name.startswith("smpi:"):
            yield name, ["--exchange", "mpi"], name.split(":", 1)[1]
        else:
            yield name, ["--exchange", name], None


def cmd_run(a):
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "results.jsonl")
    done = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                done.add((r["platform"], r["case"], r["P"], r["L"], r["algorithm"]))
    algorithms = a.algorithms.split(",")
    smpi_ranks = {int(x) for x in a.smpi_ranks.split(",")}
    smpi_more = {int(x) for x in a.smpi_more_ranks.split(",") if x}
    for ranks in [int(x) for x in a.ranks.split(",")]:
        for platform in a.platforms.split(","):
            for case in a.cases.split(","):
                for name, args, alltoall in algorithm_runs(algorithms + ["planned"]):
                    key = (platform, case, ranks, a.ranks_per_node, name)
                    if key in done:
                        continue
                    # SMPI's own algorithms cannot be sampled: every round of every rank is simulated.
                    if alltoall and ranks not in smpi_ranks and not (
                            ranks in smpi_more and platform in a.smpi_more_on.split(",")):
                        continue
                    extra = case_args(case)
                    if name == "planned":
                        extra = extra + ["--dry-run"]
                    elif not alltoall and a.sample_rounds > 0 and ranks > a.sample_above:
                        extra = extra + ["--sample-rounds", str(a.sample_rounds)]
                    r = simulate(a.sim, platform, ranks, a.ranks_per_node, extra + args, alltoall=alltoall,
                                 timeout=a.timeout, max_rss=a.max_rss << 30, copy_bw=a.copy_bw)
                    r.update({"platform": platform, "case": case, "P": ranks, "L": a.ranks_per_node,
                              "algorithm": name})
                    with open(path, "a") as f:
                        f.write(json.dumps(r) + "\n")
                    if name == "planned" and "error" not in r:
                        # A dry run: the planner's choice; the table takes its time from that choice's row.
                        shown = f"plans {r['exchange']} (model: {r['estimate_s']:.4g} s)"
                    else:
                        shown = r.get("error") or f"{r['seconds']:.4f} s simulated"
                    print(f"{platform:14s} {case:6s} P={ranks:5d} {name:18s} {shown}  ({r.get('host_s')} s host)",
                          flush=True)
    cmd_report(argparse.Namespace(dir=a.out))


def load(directory):
    rows = []
    with open(os.path.join(directory, "results.jsonl")) as f:
        for line in f:
            rows.append(json.loads(line))
    return rows


def fmt_bytes(b):
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= size:
            return f"{b / size:.0f} {unit}" if b % size == 0 else f"{b / size:.1f} {unit}"
    return f"{b} B"


def planned_seconds(rows, r):
    """The planner's choice as run. The planned row is a dry run (the planner only); its time is
    that of the row which runs the same exchange at the same stage width: node-aware -> the
    mpi-node row; flat -> MPI_Alltoallv, which here is SMPI's ompi selector (the row smpi:ompi)."""
    match = "mpi-node" if r.get("exchange") == "mpi-node" else "smpi:ompi"
    for o in rows:
        if (o["platform"], o["case"], o["P"], o["L"], o["algorithm"]) == (r["platform"], r["case"], r["P"], r["L"],
                                                                           match) and "seconds" in o:
            if (o.get("width"), o.get("stages")) != (r.get("width"), r.get("stages")):
                return None, f"{match} at another stage width"
            return o["seconds"], match
    return None, match


def cmd_report(a):
    rows = load(a.dir)
    algorithms = []
    for r in rows:
        if r["algorithm"] not in algorithms and r["algorithm"] != "planned":
            algorithms.append(r["algorithm"])
    keys = []
    for r in rows:
        k = (r["platform"], r["case"], r["P"], r["L"])
        if k not in keys:
            keys.append(k)
    lines = ["| platform | case | P | ranks/node | flat piece | " + " | ".join(algorithms) +
             " | planned | planned / best |", "|" + "---|" * (len(algorithms) + 7)]
    for k in keys:
        by = {r["algorithm"]: r for r in rows if (r["platform"], r["case"], r["P"], r["L"]) == k}
        piece = next((r["piece_bytes"] for r in by.values() if "piece_bytes" in r), None)
        cells, best = [], None
        for name in algorithms:
            r = by.get(name)
            if r is None:
                cells.append("")
            elif "seconds" in r:
                cells.append(f"{r['seconds']:.4g}")
                best = r["seconds"] if best is None else min(best, r["seconds"])
            else:
                cells.append("fails")
        plan = by.get("planned")
        planned, ratio = "", ""
        if plan and "exchange" in plan:
            t, match = planned_seconds(rows, plan)
            planned = ("node-aware" if plan["exchange"] == "mpi-node" else "flat") + (f" {t:.4g}" if t else
                                                                                       f" ({match} not run)")
            if t and best:
                ratio = f"{t / best:.2f}"
        lines.append(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {fmt_bytes(piece) if piece else ''} | " +
                     " | ".join(cells) + f" | {planned} | {ratio} |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(a.dir, "table.md"), "w") as f:
        f.write("Simulated seconds of one stage's exchange (max over ranks)\n\n" + table)
    print(table)
    chart(rows, algorithms, os.path.join(a.dir, "scaling.png"))


def chart(rows, algorithms, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    platforms = [p for p in PLATFORMS if any(r["platform"] == p for r in rows)]
    cases = [c for c in ("weak", "strong") if any(r["case"] == c for r in rows)]
    fig, axes = plt.subplots(len(cases), len(platforms), figsize=(4.2 * len(platforms), 3.6 * len(cases)),
                             squeeze=False, sharex=True)
    styles = {"mpi-pairwise": ("C0", "o-"), "mpi-node": ("C3", "s-"), "smpi:pair": ("C1", "^--"),
              "smpi:basic_linear": ("C2", "v--"), "smpi:ompi": ("C4", "d--")}
    for i, case in enumerate(cases):
        for j, platform in enumerate(platforms):
            ax = axes[i][j]
            for name in algorithms:
                pts = sorted((r["P"], r["seconds"]) for r in rows
                             if r["platform"] == platform and r["case"] == case and r["algorithm"] == name
                             and "seconds" in r)
                if pts:
                    color, style = styles.get(name, ("k", "x-"))
                    ax.plot([p for p, _ in pts], [t for _, t in pts], style, color=color, label=name, ms=4)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"{platform}, {case}", fontsize=10)
            ax.grid(True, which="both", alpha=0.3)
            if j == 0:
                ax.set_ylabel("stage exchange, simulated s")
            if i == len(cases) - 1:
                ax.set_xlabel("ranks (4 per node)")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("xpose stage exchange on simulated 1024-node clusters (SimGrid SMPI): weak = 1 GiB per rank, "
                 "strong = 131072² float32", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"chart: {path}")


def cmd_fit(a):
    """Least squares, relative: flat T = latency x (P-1) + off-node bytes x L / bandwidth; node-aware
    T = fixed + latency x ceil((N-1)/L) + off-node bytes x L / bandwidth."""
    import numpy as np
    rows = [r for r in load(a.dir) if "seconds" in r and not r.get("dry_run") and
            r["platform"] in a.platforms.split(",")]
    out = {}
    for name, key in (("mpi-pairwise", "flat"), ("mpi-node", "node")):
        sel = [r for r in rows if r["algorithm"] == name]
        if len(sel) < 3:
            continue
        A, y = [], []
        for r in sel:
            P, L = r["P"], r["L"]
            N = -(-P // L)
            msgs = P - 1 if key == "flat" else -(-(N - 1) // L)
            terms = [msgs, r["piece_bytes"] * (P - L) * L] + ([1.0] if key == "node" else [])
            # Each run weighted by 1/time, so small and large stages count alike.
            A.append([t / r["seconds"] for t in terms])
            y.append(1.0)
        coef, *_ = np.linalg.lstsq(np.array(A), np.array(y), rcond=None)
        coef = np.maximum(coef, 0)
        pred = np.array(A) @ coef
        out[f"{key}_latency"] = float(coef[0])
        out[f"{key}_bandwidth"] = float(1 / coef[1])
        if key == "node":
            out["node_fixed"] = float(coef[2])
        out[f"{key}_runs"] = len(sel)
        out[f"{key}_worst_relative_error"] = float(np.max(np.abs(pred - 1)))
        out[f"{key}_median_relative_error"] = float(np.median(np.abs(pred - 1)))
    print(json.dumps(out, indent=1))
    print("XPOSE_EXCHANGE_MODEL=" + ",".join(f"{k}={out[k]:.4g}" for k in
                                             ("flat_latency", "flat_bandwidth", "node_latency", "node_bandwidth",
                                              "node_fixed") if k in out))


def cmd_check(a):
    """The ctest: correct data at small scale (unshared), the simulator's timing at P = 64 and a
    sampled P = 256 (sampling within 3 % of the full run), the planner's choice where it matters."""
    failures = []

    def expect(cond, what):
        print(("PASS " if cond else "FAIL ") + what, flush=True)
        if not cond:
            failures.append(what)

    # Every element, unshared: uneven blocks (1000 x 1100 over 16 and 24 ranks), nodes of 4 and,
    # at 24 ranks with 5 per node, a short last node.
    for ranks, per_node in ((16, 4), (24, 5)):
        for name in ("mpi", "mpi-pairwise", "mpi-node"):
            r = simulate(a.sim, "fat-tree-4to1", ranks, per_node,
                         ["--shape", "1000,1100", "--exchange", name, "--check"], folded=False, timeout=300)
            expect("error" not in r and r["bad"] == 0 and r["checked"] > 0,
                   f"P={ranks} ({per_node} per node) {name}: every element "
                   f"({r.get('checked', 0)} checked, {r.get('bad', '-')} wrong) {r.get('error', '')}")
    # A 3-D batch whose stages take several matrices.
    r = simulate(a.sim, "dragonfly", 16, 4, ["--shape", "6,128,96", "--exchange", "mpi-node", "--check"],
                 folded=False, timeout=300)
    expect("error" not in r and r["bad"] == 0 and r["checked"] > 0, f"P=16 batch 6x128x96 mpi-node: every element "
           f"({r.get('checked', 0)} checked) {r.get('error', '')}")

    # Timing at P = 64 (all rounds) and P = 256: a sampled run within 3 % of the full one.
    for name in ("mpi-pairwise", "mpi-node"):
        r = simulate(a.sim, "fat-tree-4to1", 64, 4, ["--weak", "256MiB", "--max-buffer", "1GiB", "--exchange", name])
        expect("error" not in r and r["seconds"] > 0, f"P=64 {name}: {r.get('seconds', r.get('error'))} s")
    full = simulate(a.sim, "fat-tree-4to1", 256, 4, ["--shape", "32768,32768", "--exchange", "mpi-pairwise"])
    sampled = simulate(a.sim, "fat-tree-4to1", 256, 4,
                       ["--shape", "32768,32768", "--exchange", "mpi-pairwise", "--sample-rounds", "16"])
    ok = "error" not in full and "error" not in sampled and sampled["rounds_run"] < full["rounds_run"]
    expect(ok and abs(sampled["seconds"] / full["seconds"] - 1) < 0.03,
           f"P=256 pairwise: {sampled.get('rounds_run')} sampled rounds give {sampled.get('seconds')} s, "
           f"all {full.get('rounds_run')} give {full.get('seconds')} s")
    # Small pieces (131072^2 over 256 ranks would be 1 MiB; 8192^2 gives 4 KiB): the planner takes
    # the node-aware exchange, and the simulation agrees that it is the faster.
    plan = simulate(a.sim, "fat-tree-4to1", 256, 4, ["--shape", "8192,8192", "--dry-run"])
    node = simulate(a.sim, "fat-tree-4to1", 256, 4, ["--shape", "8192,8192", "--exchange", "mpi-node"])
    flat = simulate(a.sim, "fat-tree-4to1", 256, 4, ["--shape", "8192,8192", "--exchange", "mpi-pairwise"])
    expect(plan.get("exchange") == "mpi-node" and node.get("seconds", 1) < flat.get("seconds", 0),
           f"P=256 4 KiB pieces: planner chose {plan.get('exchange')}; node-aware {node.get('seconds')} s, "
           f"flat {flat.get('seconds')} s")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    default_sim = os.path.join(HERE, "..", "build", "bin", "xpose_exchange_sim")
    r = sub.add_parser("run")
    r.add_argument("--sim", default=default_sim)
    r.add_argument("--out", required=True)
    r.add_argument("--platforms", default="fat-tree-4to1,dragonfly,fat-tree-1to1,torus")
    r.add_argument("--cases", default="weak,strong")
    r.add_argument("--ranks", default="64,256,1024,4096")
    r.add_argument("--ranks-per-node", type=int, default=4)
    r.add_argument("--algorithms", default=",".join(OWN + ["smpi:" + s for s in SMPI_ALGORITHMS]))
    r.add_argument("--sample-rounds", type=int, default=16,
                   help="round groups (of ranks-per-node rounds) run past --sample-above ranks")
    r.add_argument("--sample-above", type=int, default=256)
    r.add_argument("--smpi-ranks", default="64,256", help="rank counts for SMPI's own algorithms everywhere")
    r.add_argument("--smpi-more-ranks", default="1024", help="... and on --smpi-more-on only")
    r.add_argument("--smpi-more-on", default="fat-tree-4to1,dragonfly")
    r.add_argument("--timeout", type=int, default=3600)
    r.add_argument("--max-rss", type=int, default=6, help="GiB")
    r.add_argument("--copy-bw", type=float, default=10e9)
    rep = sub.add_parser("report")
    rep.add_argument("dir")
    f = sub.add_parser("fit")
    f.add_argument("dir")
    f.add_argument("--platforms", default="fat-tree-4to1,dragonfly")
    c = sub.add_parser("check")
    c.add_argument("--sim", default=default_sim)
    a = ap.parse_args()
    if a.cmd == "run":
        cmd_run(a)
    elif a.cmd == "report":
        cmd_report(a)
    elif a.cmd == "fit":
        cmd_fit(a)
    else:
        sys.exit(cmd_check(a))


if __name__ == "__main__":
    main()
