#!/usr/bin/env python3
"""The controller under changing load, measured on pagerank (docs/runtime.md,
issue 40).

A stream of units (one pagerank run each, the runtime-table build) with a
goal per unit between the fastest frontier point within the loss bound and
the next more accurate one; competing CPU-bound processes run during the
middle third of the stream. The same stream is run under the controller and
on static points: exact (the most accurate), the fastest, the best static
pick for the average load, and the best static pick for the worst load (the
most accurate points predicted to meet the goal at the stream's mean and at
its loaded speed, from the controller run's measurements). Reports, per run,
the deadline-miss rate, the mean QoS of the points used (the frontier's
held-out QoS) and, for the controller, the settling units after each change.

Writes load.json (every unit) and the `scenarios.pagerank` entry of
summary.json in --out."""
import argparse
import atexit
import json
import os
import shutil
import tempfile

from common import (add_arguments, base_seconds, best_static, prepare, repo, run, settling,
                    update_scenario, write_json)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(ap)
    ap.add_argument("--units", type=int, default=90)
    ap.add_argument("--load-procs", type=int, default=2,
                    help="competing CPU-bound processes while loaded")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="approx-load-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    bench, _, common, points, target, goal = prepare(a, tmp)
    third = a.units // 3
    stream = common + ["--units", str(a.units), "--load-from", str(third),
                       "--load-to", str(2 * third), "--load-procs", str(a.load_procs)]

    def load(extra):
        return json.loads(run([bench, "load"] + stream + extra))

    ctl = load(["--target", repr(goal)])
    # The machine's time per unit at the most accurate point, idle and
    # loaded, from the controller's units.
    rel = {p["point"]: p["relative_time"] for p in points}
    idle, loaded = base_seconds(ctl["units"], rel, [third, 2 * third], min(3, third // 3))
    mean = (idle * (a.units - third) + loaded * third) / a.units
    statics = {"exact": len(points) - 1, "fastest": 0,
               "average_load": best_static(points, mean, goal),
               "worst_load": best_static(points, loaded, goal)}
    results = {name: load(["--target", repr(goal), "--static-point", str(p)])
               for name, p in statics.items()}

    def brief(r):
        return {"deadline_miss_rate": r["deadline_miss_rate"], "qos": r["qos"]}

    scenario = dict(brief(ctl), kernel="pagerank",
                    settling_units=settling([u["point"] for u in ctl["units"]],
                                            [third, 2 * third], a.units),
                    size=a.size, units=a.units, load_units=[third, 2 * third],
                    load_procs=a.load_procs, target_seconds=goal,
                    unit_seconds_idle=idle, unit_seconds_loaded=loaded,
                    static={name: dict(brief(r), point=statics[name])
                            for name, r in results.items()})
    write_json(os.path.join(a.out, "load.json"), {
        "frontier": os.path.relpath(a.frontier, repo), "points": points,
        "controller": ctl, "static": results})
    update_scenario(a.out, "pagerank", scenario)
    print(f"pagerank (size {a.size}), {a.units} units, {a.load_procs} competing processes "
          f"during units {third}-{2 * third - 1}; goal {goal:.3f} s per unit "
          f"(exact point: {idle:.3f} s idle, {loaded:.3f} s loaded)")
    print(f"{'run':<22}{'point':>8}{'deadline misses':>18}{'mean QoS':>10}")
    print(f"{'controller':<22}{'-':>8}{ctl['deadline_miss_rate']:>18.3f}{ctl['qos']:>10.3f}"
          f"   settling {scenario['settling_units']} units")
    for name, r in results.items():
        print(f"{'static ' + name:<22}{statics[name]:>8}{r['deadline_miss_rate']:>18.3f}"
              f"{r['qos']:>10.3f}")


if __name__ == "__main__":
    main()
