"""Checks every output file of an approx-tune run against each other.

usage: check_tune_outputs.py OUT_DIR QOS_MIN BAKED_OUTPUT TABLE_OUTPUT

BAKED_OUTPUT / TABLE_OUTPUT: what the baked build of best_config.json and the
runtime-table build run with it printed (their `approx-result` lines).
"""
import csv
import json
import re
import sys
import xml.etree.ElementTree as ET

out, qos_min = sys.argv[1], float(sys.argv[2])
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


summary = json.load(open(f"{out}/summary.json"))
best_config = json.load(open(f"{out}/best_config.json"))
base = summary["baseline"]["tuning"]["time_s"]

# summary.json: the run, the best configuration, speedups on both sets.
for key in ("space", "mode", "qos_min", "seed", "config_space", "evaluations",
            "failed", "tuning_time_s", "best", "speedup", "frontier"):
    check(key in summary, f"summary.json lacks {key}")
check(summary["qos_min"] == qos_min, "summary.json: qos_min")
best = summary["best"]
check(best is not None and best["qos"] >= qos_min, "best meets the bound")
check(best["config"] == best_config, "best_config.json is summary's best")
check(abs(best["speedup"] - base / best["time_s"]) < 1e-3 * best["speedup"],
      "best speedup = baseline / time")
for s in ("tuning", "evaluation"):
    levels = summary["speedup"][s]
    check(sorted(levels) == ["1", "3", "6", "9"], f"{s} levels")
    values = [levels[k] for k in ("1", "3", "6", "9")]
    check(values == sorted(values) and values[0] >= 1,
          f"{s} speedups grow with the allowed loss: {values}")

# pareto.csv: header, one row per frontier point, ascending time; QoS
# ascends along the Pareto points, and a point under them is static (a
# dynamic run keeps its static points' own frontier: summary.json says which).
rows = list(csv.DictReader(open(f"{out}/pareto.csv")))
header = open(f"{out}/pareto.csv").readline().strip().split(",")
check(header[:6] == ["time_s", "qos", "speedup", "eval_time_s", "eval_qos",
                     "eval_speedup"], f"pareto.csv header {header}")
check(set(header[6:]) == set(best_config), "pareto.csv has every parameter")
check(len(rows) == len(summary["frontier"]) and rows, "pareto.csv rows")
times = [float(r["time_s"]) for r in rows]
qos = [float(r["qos"]) for r in rows]
static = [p["static"] for p in summary["frontier"]]
check(times == sorted(times), "frontier ascends in time")
check(all(st or not any(t2 <= t and q2 >= q and (t2 < t or q2 > q)
                        for t2, q2 in zip(times, qos))
          for t, q, st in zip(times, qos, static)),
      "a frontier point under the Pareto line is static")
mixed = [q for q, st in zip(qos, static) if not st]
check(mixed == sorted(mixed), "the frontier's dynamic points ascend in QoS")
check(qos[-1] == 1.0, "the frontier ends at an exact point")
best_row = {k: int(v) for k, v in rows[[abs(t - best["time_s"]) < 1e-12
                                        for t in times].index(True)].items()
            if k in best_config}
check(best_row == best_config, "the best configuration is on the frontier")
check(all(r["eval_qos"] for r in rows), "every frontier point re-measured")

# plot.svg: well-formed, one dot per successful evaluation, the frontier.
svg = ET.parse(f"{out}/plot.svg").getroot()
ns = "{http://www.w3.org/2000/svg}"
dots = [c for c in svg.iter(ns + "circle") if c.get("class") == "point"]
front = [c for c in svg.iter(ns + "circle") if c.get("class") == "frontier-point"]
held = [c for c in svg.iter(ns + "rect") if c.get("class") == "evaluation-point"]
check(len(dots) == summary["evaluations"] + 1 - summary["failed"],
      f"plot has {len(dots)} points")
check(len(front) == len(rows) and len(held) == len(rows), "plot frontier")

# speedup.txt: the four levels with both sets.
table = open(f"{out}/speedup.txt").read().splitlines()
check(table[0].startswith("QoS loss"), "speedup.txt header")
check([l.split()[1] for l in table[1:]] == ["1%", "3%", "6%", "9%"],
      "speedup.txt levels")
for line, level in zip(table[1:], ("1", "3", "6", "9")):
    check(abs(float(line.split()[2].rstrip("x")) -
              summary["speedup"]["tuning"][level]) < 0.01, f"table {level}%")

# tuned.mlir: the annotations carry the best configuration.
mlir = open(f"{out}/tuned.mlir").read()
m = re.search(r'decisions = array<i32: (\d+), (\d+)>, func_name = "row_mean"',
              mlir)
check(m and [int(m.group(1)), int(m.group(2))] ==
      [best_config["row_mean_decision_0"], best_config["row_mean_decision_1"]],
      "tuned.mlir decisions")
m = re.search(r'thresholds = array<i32: (\d+)>', mlir)
check(m and int(m.group(1)) == best_config["row_mean_threshold_0"],
      "tuned.mlir threshold")

# The baked deployment build computes what the runtime-table build computed.
def qos_of(path):
    return float(re.search(r"qos=([0-9.]+)", open(path).read()).group(1))
baked, table_qos = qos_of(sys.argv[3]), qos_of(sys.argv[4])
check(baked == table_qos, f"baked qos {baked} != runtime-table qos {table_qos}")
check(abs(baked - best["qos"]) < 1e-6, "the baked build has the tuned qos")

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print(f"outputs consistent: {len(rows)} frontier points, best "
      f"{best['speedup']:.2f}x at qos {best['qos']:.4f}")
