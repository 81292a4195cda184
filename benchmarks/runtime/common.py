"""Shared steps of the runtime benchmarks (load.py, jit.py): the tools,
pagerank's annotated MLIR, the controller's view of the frontier, the goal's
point, and results written whole."""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
KERNEL = os.path.join(repo, "benchmarks", "pagerank", "pagerank.c")
FRONTIER = os.path.join(repo, "benchmarks", "results", "pagerank", "dynamic", "pareto.csv")
RESULTS = os.path.join(repo, "benchmarks", "results", "runtime")


def add_arguments(ap):
    ap.add_argument("--build", default=os.path.join(repo, "build"))
    ap.add_argument("--size", type=int, default=1,
                    help="0 tiny, 1 small (the size the frontier was tuned at), 2 paper")
    ap.add_argument("--loss", type=float, default=0.09,
                    help="the goal lies between the fastest point within this loss and the "
                    "next more accurate one")
    ap.add_argument("--frontier", default=FRONTIER)
    ap.add_argument("--out", default=RESULTS)


def tools(build):
    bench = os.path.join(build, "bin", "approx-bench-runtime")
    cc = os.path.join(build, "bin", "approx-cc")
    for tool in (bench, cc):
        if not os.access(tool, os.X_OK):
            sys.exit(f"error: {tool} is not built (scripts/build.sh)")
    return bench, cc


def run(cmd):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout


def prepare(a, tmp):
    """pagerank's annotated MLIR, the common arguments of every phase, the
    controller's points and the goal's point."""
    bench, cc = tools(a.build)
    mlir = os.path.join(tmp, "pagerank.mlir")
    run([cc, "-O3", "--emit=annotated", KERNEL, "-o", mlir])
    common = ["--mlir", mlir, "--frontier", a.frontier, "--size", str(a.size)]
    points = json.loads(run([bench, "points"] + common))
    within = [p for p in points if p["qos"] >= 1 - a.loss and p["point"] + 1 < len(points)]
    if not within:
        sys.exit(f"error: no frontier point below the most accurate one is within a loss "
                 f"of {a.loss}")
    return bench, cc, common, points, within[0]["point"]


def write_json(path, value):
    """Through a temporary file, renamed: a failed run leaves no half file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def update_summary(out, key, value):
    """Sets one entry of out/summary.json, keeping the others."""
    path = os.path.join(out, "summary.json")
    summary = json.load(open(path)) if os.path.exists(path) else {}
    summary[key] = value
    write_json(path, summary)
