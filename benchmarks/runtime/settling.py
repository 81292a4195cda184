#!/usr/bin/env python3
"""The percentile goal's settling, replayed and on a generated family
(docs/runtime.md, issue 40): the real controller (approx_runtime.Controller,
the C library) driven with simulated unit times, no LLM run.

1. Replays: for each compound_load-NAME.json given (--replay), a plant
   whose question i at point p takes the time a static run of that run
   measured for question i at p (the static runs cover the exact, fastest,
   average- and worst-load points; another point's time is the nearest
   measured point's, scaled by the frontier's relative times), under the
   run's load (its loaded thirds) and goal.
2. A generated family (--family N plants, seeded): the frontier's points
   whose real relative times differ from the file's by a log-normal factor
   (sigma 0.35: a frontier tuned on other inputs), questions whose times
   vary log-normally (sigma 0.2-0.5), a load step of 1.8-3x in the middle
   third, and a goal 1.5-2.5x a point's typical time.

Reports per plant the settling units (common.settling: from a change until
the point used never changes again before the next one), the miss rate and
the mean QoS of the points used (the frontier's), and over the family their
medians, means and the share settling within 10 units. Writes
settling.json in --out; run it at another commit (the controller of that
commit, the same plants) for a before/after, and give that run's file as
--against for a paired comparison per plant (a sign test on settling)."""
import argparse
import json
import math
import os
import random
import statistics
import sys

from common import RESULTS, repo, settling, write_json

sys.path.insert(0, os.path.join(repo, "python"))
from approx_runtime import Controller  # noqa: E402  (the source tree's, as drift.py)

FRONTIER = os.path.join(RESULTS, "rag_bm25-load-frontier", "pareto.csv")
REPLAYS = [os.path.join(RESULTS, f"compound_load-{n}.json")
           for n in ("rag_bm25_p95_wide", "rag_bm25_p95_wide_again", "rag_bm25_p95_settle",
                     "rag_bm25_p95_settle_again")]


def replay_plant(path, relative):
    """(time(point, question), target, questions, loaded thirds) of a run."""
    d = json.load(open(path))
    scenario, measured = d["scenario"], {}
    for name, run in d["runs"].items():
        if name.startswith("static "):
            point = scenario["static"][name.split(" ", 1)[1]]["point"]
            measured[point] = [u["seconds"] for u in run["units"]]

    def time(p, i):
        q = min(measured, key=lambda q: abs(math.log(relative[q] / relative[p])))
        return measured[q][i] * relative[p] / relative[q]
    n = scenario["questions"]
    return time, scenario["target_seconds"], n, scenario["load_units"]


def family_plant(seed, relative, n=60):
    g = random.Random(seed)
    real = sorted(r * math.exp(g.gauss(0, 0.35)) for r in relative)
    unit, load, sigma = g.uniform(2.5, 4.0) / real[-1], g.uniform(1.8, 3.0), g.uniform(0.2, 0.5)
    spread = [math.exp(g.gauss(0, sigma)) for _ in range(n)]
    changes = [n // 3, 2 * n // 3]
    target = unit * real[g.randrange(len(real) // 2, len(real))] * g.uniform(1.5, 2.5)

    def time(p, i):
        return unit * real[p] * spread[i] * (load if changes[0] <= i < changes[1] else 1)
    return time, target, n, changes


def drive(frontier, plant, percentile):
    time, target, n, changes = plant
    ctl = Controller(frontier, target, percentile=percentile)
    points, misses, qos = [], 0, 0.0
    for i in range(n):
        p = ctl.point
        points.append(p)
        qos += ctl.qos(p)
        with ctl.unit(seconds=time(p, i)) as unit:
            pass
        misses += unit.missed
    return {"settling_units": settling(points, changes, n), "miss_rate": misses / n,
            "qos": qos / n, "points": "".join(map(str, points))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frontier", default=FRONTIER)
    ap.add_argument("--replay", nargs="*", default=REPLAYS)
    ap.add_argument("--family", type=int, default=600, help="generated plants (default 600)")
    ap.add_argument("--seed", type=int, default=1000, help="the first plant's seed")
    ap.add_argument("--percentile", type=float, default=0.95)
    ap.add_argument("--against", help="a settling.json of another controller on the same plants")
    ap.add_argument("--out", default=RESULTS)
    a = ap.parse_args()
    if not os.path.exists(a.frontier):
        sys.exit(f"error: {a.frontier}: no such frontier")
    probe = Controller(a.frontier, 1.0, percentile=a.percentile)
    relative = [probe.relative_time(p) for p in range(probe.num_points)]
    result = {"frontier": os.path.relpath(a.frontier, repo), "percentile": a.percentile,
              "replays": {}}
    for path in a.replay:
        if not os.path.exists(path):
            sys.exit(f"error: {path}: no such run (compound_load.py writes them)")
        r = drive(a.frontier, replay_plant(path, relative), a.percentile)
        result["replays"][os.path.basename(path)] = r
        print(f"{os.path.basename(path)}: settling {r['settling_units']}, misses "
              f"{r['miss_rate']:.3f}, QoS {r['qos']:.3f}  {r['points']}")
    runs = [drive(a.frontier, family_plant(a.seed + k, relative), a.percentile)
            for k in range(a.family)]
    if runs:
        s = [r["settling_units"] for r in runs]
        fam = {"plants": a.family, "first_seed": a.seed,
               "settling_median": statistics.median(s),
               "settling_within_10": sum(x <= 10 for x in s) / len(s),
               "miss_rate_mean": statistics.mean(r["miss_rate"] for r in runs),
               "qos_mean": statistics.mean(r["qos"] for r in runs), "settling": s}
        result["family"] = fam
        print(f"family of {a.family}: settling median {fam['settling_median']}, within 10 "
              f"units {fam['settling_within_10']:.3f}, misses {fam['miss_rate_mean']:.4f}, "
              f"QoS {fam['qos_mean']:.4f}")
    if a.against and runs:
        result["against"] = paired(a.against, result)
    write_json(os.path.join(a.out, "settling.json"), result)


def paired(path, result):
    """Per plant of the family, this controller's settling against
    `path`'s: fewer, equal, more units, and the two-sided sign test's p."""
    other = json.load(open(path)).get("family", {})
    fam = result["family"]
    if (other.get("first_seed"), other.get("plants")) != (fam["first_seed"], fam["plants"]) \
            or "settling" not in other:
        sys.exit(f"error: {path}: not a run on the same plants (--seed, --family)")
    pairs = list(zip(fam["settling"], other["settling"]))
    fewer = sum(x < y for x, y in pairs)
    more = sum(x > y for x, y in pairs)
    n = fewer + more
    tail = sum(math.comb(n, k) for k in range(min(fewer, more) + 1)) / 2 ** n if n else 1
    out = {"file": os.path.relpath(path, repo), "fewer": fewer, "equal": len(pairs) - n,
           "more": more, "sign_test_p": min(1.0, 2 * tail)}
    print(f"against {out['file']}: settling fewer on {fewer} plants, equal on {out['equal']}, "
          f"more on {more} (sign test p = {out['sign_test_p']:.2g})")
    return out


if __name__ == "__main__":
    main()
