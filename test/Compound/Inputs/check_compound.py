#!/usr/bin/env python3
"""Checks a compound.py results folder: every file, and summary.json's shape
and consistency (speedups positive, QoS in [0, 1], every deployed pick
certified at its level on the validation set, within-bound speedups only
from builds meeting their bound)."""
import json
import os
import sys

results, name = sys.argv[1], sys.argv[2]
d = os.path.join(results, name)
for f in ["summary.json", "report.md"] + [f"{m}/{x}" for m in ("static", "dynamic")
                                          for x in ("best_config.json", "pareto.csv",
                                                    "plot.svg", "summary.json")]:
    assert os.path.isfile(os.path.join(d, f)), f"missing {f}"
s = json.load(open(os.path.join(d, "summary.json")))
levels = ["3", "6", "9"]
for m in ("static", "dynamic"):
    assert s["config_space"][m] > 1
    for l in levels:
        assert s["speedup"][m]["tuning"][l] >= 1
        dep = s["deployment"][m][l]
        if dep is not None:  # None: only the exact system is certified
            assert dep["speedup"] > 0 and 0 <= dep["qos"] <= 1, dep
            assert dep["loss_upper"] <= int(l) / 100 + 1e-3, dep
            rel, iv = dep["relative_qos"], dep["relative_qos_interval"]
            assert rel is None or (rel >= 0 and (iv is None or iv[0] <= rel <= iv[1])), dep
        cert = json.load(open(os.path.join(d, m, "summary.json")))["certified"][l]
        assert cert["inputs"] == s["questions"]["validation"], cert
        ok = [x["speedup"] for x in s["deployment"][m].values()
              if x and x["qos"] >= 1 - int(l) / 100 - 1e-12]
        assert abs(s["evaluation_within_bound"][m][l] - max(ok + [1.0])) < 1e-12
    assert s["tuning"][m]["evaluations"] >= 1
    # Screened candidates are evaluations, and each stored pick met the
    # bound on the whole tuning set.
    assert 0 <= s["tuning"][m]["screened"] <= s["tuning"][m]["evaluations"]
    if not s["settings"]["screen"]:
        assert s["tuning"][m]["screened"] == 0
assert 0 <= s["exact_accuracy"]["tuning"] <= 1 and 0 <= s["exact_accuracy"]["evaluation"] <= 1
assert len(s["exact_time_s"]["evaluation"]) == 2
assert [e["model"] for e in s["engine"]][0] == "gemma-3-270m-q4_k_m"
assert all(e["prompt_tps"] > 0 and e["generate_tps"] > 0 for e in s["engine"])
assert s["questions"] == {"tuning": 1, "validation": 3, "evaluation": 5}
assert 1 <= s["timing_questions"] <= 5
assert s["qa_models"]["set"] == "small" and s["qa_models"]["files"][0] == "gemma-3-270m-q4_k_m.gguf"
assert 0 <= s["exact_accuracy"]["validation"] <= 1
print(f"{name}: summary.json complete and consistent")
