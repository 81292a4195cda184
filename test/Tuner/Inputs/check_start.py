"""Checks that a run started from a pareto.csv measured its configurations
first, in the file's order (the exact one excepted: it is the baseline).

usage: check_start.py PARETO_CSV HISTORY_CSV"""
import csv
import sys

with open(sys.argv[1]) as f:
    rows = list(csv.DictReader(f))
params = [c for c in rows[0] if c not in
          ("time_s", "qos", "speedup", "eval_time_s", "eval_qos", "eval_speedup")]
wanted = []
for r in rows:
    config = {p: int(r[p]) for p in params}
    exact = all(v == 0 for p, v in config.items() if "_threshold_" not in p)
    if not exact and config not in wanted:
        wanted.append(config)

with open(sys.argv[2]) as f:
    history = [r for r in csv.DictReader(f) if r["input_set"] == "tuning"]


def config_of(r):
    return {kv.split("=")[0]: int(kv.split("=")[1]) for kv in r["config"].split(",")}


assert history[0]["technique"] == "exact", history[0]
start = [config_of(r) for r in history[1:] if r["technique"] == "start"]
assert [config_of(r) for r in history[1:len(wanted) + 1]] == wanted, (start, wanted)
assert start == wanted and start, (start, wanted)
seen = [r["config"] for r in history]
assert len(seen) == len(set(seen)), "a configuration was measured twice"
print(f"{len(start)} start configurations measured first, in order; none repeated")
