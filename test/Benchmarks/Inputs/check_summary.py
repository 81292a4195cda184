"""Checks a kernels.py result directory: summary.json has the issue's shape
with sane values, every output file is there, and the dynamic run (started
from the static frontier) measured the static frontier's points, and the
held-out re-measurement ran baked builds. Nothing here compares timings: those
belong to the benchmarks, not to the test suite.

usage: check_summary.py RESULTS_DIR WORK_DIR KERNEL"""
import csv
import json
import os
import sqlite3
import sys

results, work, kernel = sys.argv[1:4]
with open(os.path.join(results, kernel, "summary.json")) as f:
    s = json.load(f)
assert s["kernel"] == kernel and s["size"] == "tiny", s
levels = ["3", "6", "9"]
for mode in ("static", "dynamic"):
    assert s["config_space"][mode] >= 1
    for kind in ("tuning", "evaluation"):
        for l in levels:
            v = s["speedup"][mode][kind][l]
            assert v is not None and v >= 1.0, (mode, kind, l, v)
    # Each level deploys its certified pick (chosen on the calibration
    # inputs): the test inputs report its QoS, which no level constrains.
    for l in levels:
        d = s["deployment"][mode][l]
        assert d["speedup"] > 0 and 0 <= d["qos"] <= 1, (mode, l, d)
        c = s["certified"][mode][l]
        assert c["inputs"] == len(s["settings"]["calibration_instances"]), (mode, l, c)
        assert c["exact"] or c["loss_upper"] <= int(l) / 100 + 1e-3, (mode, l, c)
        with open(os.path.join(results, kernel, mode, "summary.json")) as f:
            picks = json.load(f)["picks"]
        assert picks[l]["basis"] == "certified", (mode, l, picks[l])
    for name in ("best_config.json", "pareto.csv", "plot.svg", "speedup.txt", "summary.json"):
        assert os.path.exists(os.path.join(results, kernel, mode, name)), (mode, name)
    assert s["tuning"][mode]["evaluations"] >= 1
assert s["config_space"]["dynamic"] > s["config_space"]["static"]
assert s["exact_vs_clang_O3"] > 0, s["exact_vs_clang_O3"]
assert s["compile_time_s"] > 0 and s["tuning_time_s"] > 0
assert s["evaluations"] == sum(s["tuning"][m]["evaluations"] for m in ("static", "dynamic"))
assert s["exact_output_equals_clang"] is True

# The dynamic run started from the static frontier's approximate points
# (the exact one is its baseline): its budget covered them.
with open(os.path.join(results, kernel, "static", "pareto.csv")) as f:
    rows = list(csv.DictReader(f))
params = [c for c in rows[0] if not c.startswith(("time_s", "qos", "speedup", "eval_"))]
static_points = [{p: int(r[p]) for p in params} for r in rows]
static_points = [c for c in static_points
                 if any(v for p, v in c.items() if "_threshold_" not in p)]
with open(os.path.join(results, kernel, "dynamic", "summary.json")) as f:
    dyn = json.load(f)
assert dyn["evaluations"] >= len(static_points)
# Every approximate static frontier point was measured by the dynamic run (as
# a decision tree whose decisions are equal; its thresholds then select
# nothing), so the dynamic frontier can only keep or improve on it.
db = sqlite3.connect(os.path.join(work, kernel, "dynamic.db"))
measured = []
for (config,) in db.execute("select config from evaluations where input_set = 'tuning'"):
    pairs = dict(kv.split("=") for kv in config.split(","))
    measured.append({p: int(v) for p, v in pairs.items() if "_threshold_" not in p})
for point in static_points:
    wanted = {p: v for p, v in point.items() if "_threshold_" not in p}
    assert any(all(m.get(p) == v for p, v in wanted.items()) for m in measured), (
        "static frontier point not measured by the dynamic run", point)
# The held-out re-measurement and certification ran baked builds
# (evaluate-baked.sh): one per configuration they measured, in either mode,
# the exact one included.
held_out = set()
for mode in ("static", "dynamic"):
    db = sqlite3.connect(os.path.join(work, kernel, f"{mode}.db"))
    held_out |= {c for (c,) in db.execute(
        "select distinct config from evaluations where input_set in "
        "('evaluation', 'calibration')")}
baked = [f for f in os.listdir(os.path.join(work, kernel, "baked")) if f.startswith("baked-")]
assert len(held_out) >= 2 and len(baked) == len(held_out), (len(baked), len(held_out))
print(f"{kernel} tiny: summary.json complete; the dynamic run measured the static frontier; "
      "the held-out and calibration frontiers ran baked builds; each level deploys its "
      "certified pick; exact output equals clang -O3")
