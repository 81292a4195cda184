"""Shared steps of the runtime benchmarks (load.py, jit.py, compound_load.py,
drift.py): the tools, pagerank's annotated MLIR, rag_bm25's runtime-table
build, the controller's view of the frontier, the goal's point, and results
written whole."""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
KERNEL = os.path.join(repo, "benchmarks", "pagerank", "pagerank.c")
RAG_SOURCE = os.path.join(repo, "benchmarks", "compound", "rag_bm25", "rag_bm25.c")
RESULTS = os.path.join(repo, "benchmarks", "results", "runtime")
# pagerank's dynamic frontier of 2026-11-24 (before certification), which
# load.json and jit.json were measured on, kept here since the kernel's
# results were re-run with certification.
FRONTIER = os.path.join(RESULTS, "pagerank-frontier.csv")


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


def rag_table(cc, build, tmp):
    """rag_bm25's runtime-table build in `tmp`, linked against the build's
    LLM engine; its path."""
    lib = os.path.join(build, "lib")
    exe = os.path.join(tmp, "rag_bm25-table")
    run([cc, "-O3", "--approx-runtime-table", RAG_SOURCE, "-I",
         os.path.join(repo, "runtime", "llm", "include"), f"-L{lib}", "-lapprox_llm",
         f"-Wl,-rpath,{lib}", "-o", exe])
    return exe


def prepare(a, tmp):
    """pagerank's annotated MLIR, the common arguments of every phase, the
    controller's points, the goal's point k and the goal per unit (between
    k and k + 1, from the table build's measured time at the most accurate
    point)."""
    bench, cc = tools(a.build)
    mlir = os.path.join(tmp, "pagerank.mlir")
    run([cc, "-O3", "--emit=annotated", KERNEL, "-o", mlir])
    common = ["--mlir", mlir, "--frontier", a.frontier, "--size", str(a.size)]
    points = json.loads(run([bench, "points"] + common))
    k = goal_point(points, a.loss)
    exact = json.loads(run([bench, "calibrate"] + common))["exact_unit_seconds"]
    return bench, cc, common, points, k, goal_seconds(points, k, exact)


def goal_point(points, loss):
    """The fastest point within `loss` that has a more accurate one after
    it: the goal lies between the two."""
    within = [p for p in points if p["qos"] >= 1 - loss and p["point"] + 1 < len(points)]
    if not within:
        sys.exit(f"error: no frontier point below the most accurate one is within a loss "
                 f"of {loss}")
    return within[0]["point"]


def goal_seconds(points, k, exact_seconds, margin=0.1):
    """A goal per unit between point k's predicted time and point k+1's
    (their geometric mean), above the controller's margin: the controller
    settles on k when its model is right."""
    mid = (points[k]["relative_time"] * points[k + 1]["relative_time"]) ** 0.5
    return exact_seconds * mid / (1 - margin)


def best_static(points, base_seconds, goal):
    """The most accurate point predicted to meet `goal` when a unit at
    the most accurate point takes `base_seconds` (the fastest when none)."""
    fits = [p["point"] for p in points if base_seconds * p["relative_time"] <= goal]
    return max(fits) if fits else 0


def settling(points_used, changes, end):
    """The worst, over the load changes (unit indices), of the units from
    a change until the point used never changes again before the next one
    (or `end`)."""
    worst = 0
    bounds = list(changes) + [end]
    for start, stop in zip(bounds, bounds[1:]):
        if start >= stop:
            continue
        s = stop - start
        while s > 0 and points_used[start + s - 1] == points_used[stop - 1]:
            s -= 1
        worst = max(worst, s)
    return worst


def base_seconds(units, relative, changes, skip=3):
    """The machine's time per unit at the most accurate point, idle and
    loaded (medians of seconds / relative time of the point used), leaving
    out `skip` units after each change of load."""
    import statistics
    base = {True: [], False: []}
    for u in units:
        if any(c <= u["unit"] < c + skip for c in changes):
            continue
        base[u["loaded"]].append(u["seconds"] / relative[u["point"]])
    return statistics.median(base[False]), statistics.median(base[True])


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


def update_scenario(out, name, scenario):
    """Sets scenarios.<name> of out/summary.json, keeping the other
    scenarios and entries."""
    path = os.path.join(out, "summary.json")
    scenarios = json.load(open(path)).get("scenarios", {}) if os.path.exists(path) else {}
    scenarios[name] = scenario
    update_summary(out, "scenarios", scenarios)
