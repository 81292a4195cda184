"""Checks a certified approx-tune run's outputs against each other.

usage: check_certified.py OUT_DIR DELTA [--resumed CAL1_LOG CAL2_LOG]

summary.json's "certified" entries (levels 1/3/6/9 and the QoS bound) and
"picks", speedup.txt and best_config.json must agree; each certified
point's bound must be within its level. With --resumed: no configuration
was measured on the calibration set by both runs (the logs their
evaluations appended to).
"""
import json
import os
import sys

out, delta = sys.argv[1], float(sys.argv[2])
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


summary = json.load(open(f"{out}/summary.json"))
best_config = json.load(open(f"{out}/best_config.json"))
cert, certified = summary["certification"], summary["certified"]
check(cert["delta"] == delta, "certification delta")
check(cert["inputs"] >= 30, f"calibration inputs {cert['inputs']}")
check(set(certified) >= {"1", "3", "6", "9"}, f"certified levels {sorted(certified)}")
for key, c in certified.items():
    for field in ("config", "speedup", "loss_estimate", "loss_upper", "inputs",
                  "delta", "exact", "tested"):
        check(field in c, f"certified[{key}] lacks {field}")
    if c["exact"]:
        check(c["speedup"] == 1, f"certified[{key}]: exact has speedup 1")
    else:
        check(c["loss_upper"] >= c["loss_estimate"], f"certified[{key}]: upper >= estimate")
        check(c["loss_upper"] <= c["level"] + 1e-3,
              f"certified[{key}]: bound {c['loss_upper']} within level {c['level']}")
        check(c["inputs"] == cert["inputs"], f"certified[{key}]: inputs")
# The speedups grow with the level: each level's certified set contains
# the smaller levels' (the same fixed sequence).
speed = [certified[k]["speedup"] for k in ("1", "3", "6", "9")]
check(speed == sorted(speed), f"certified speedups grow with the level: {speed}")
for k in ("1", "3", "6", "9"):
    p = summary["picks"][k]
    check(p["basis"] == "certified", f"picks[{k}] basis")
    check(p["config"] == certified[k]["config"], f"picks[{k}] is the certified config")
bound = next((c for c in certified.values()
              if abs(c["level"] - (1 - summary["qos_min"])) < 1e-9), None)
check(bound is not None and bound["config"] == best_config,
      "best_config.json is the pick certified at the QoS bound")
text = open(f"{out}/speedup.txt").read()
check(f"certified on the calibration set ({cert['inputs']} inputs" in text,
      "speedup.txt certified table")
# Every frontier point has its calibration entry. The measured ones are a
# prefix of the fixed sequence (most accurate first, the exact configuration
# aside); when some are unmeasured, every level's sequence ended before them.
check(all("calibration" in p for p in summary["frontier"]), "frontier calibration entries")
exact_config = next(c["config"] for c in certified.values() if c["exact"]) \
    if any(c["exact"] for c in certified.values()) else None
sequence = sorted((p for p in reversed(summary["frontier"]) if p["config"] != exact_config),
                  key=lambda p: -p["qos"])  # stable: of equals, the slower first
measured = [p["calibration"].get("status") != "unmeasured" for p in sequence]
check(measured == sorted(measured, reverse=True),
      f"calibration measurements are a prefix of the sequence: {measured}")
check(cert["tested"] == sum(measured), f"certification tested {cert['tested']}")
if not all(measured):
    for key, c in certified.items():
        check(c["stopped_at"] and c["tested"] <= sum(measured),
              f"certified[{key}] ended within the measured points")

if "--resumed" in sys.argv:
    i = sys.argv.index("--resumed")
    logs = []
    for path in sys.argv[i + 1:i + 3]:
        logs.append(open(path).read().split() if os.path.exists(path) else [])
    check(not set(logs[0]) & set(logs[1]),
          f"measured twice on the calibration set: {set(logs[0]) & set(logs[1])}")
    check(len(logs[0]) == len(set(logs[0])) + 1,  # the exact one: first and last
          f"the first run measured each configuration once (and exact twice): {logs[0]}")

if failures:
    print("FAILED:", *failures, sep="\n  ")
    sys.exit(1)
print("certified outputs consistent")
if "--resumed" in sys.argv:
    print("resumed: no configuration measured twice on the calibration set")
