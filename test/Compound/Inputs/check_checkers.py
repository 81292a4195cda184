#!/usr/bin/env python3
"""Checks checkers.py's JSON (test/Compound/checkers.test): the signals
measured for every cheap model, AUROCs in [0, 1] (or None: one class
empty), and each cascade curve running from the cheap model's accuracy at
threshold 0 (nothing escalated) to the exact accuracy at threshold 1
(everything escalated, time = cheap + exact)."""
import json
import sys

r = json.load(open(sys.argv[1]))
ok = True
signals = set()
for m, c in r["cheap"].items():
    for name, a in c["signals"].items():
        signals.add(name.split(" ")[0])
        ok &= a is None or 0 <= a <= 1
    first, last = c["curve"][0], c["curve"][-1]
    ok &= first["threshold"] == 0 and first["escalated"] == 0
    ok &= abs(first["accuracy"] - c["cheap_accuracy"]) < 1e-9
    ok &= last["threshold"] == 1 and last["escalated"] == 1
    ok &= abs(last["accuracy"] - r["exact_accuracy"]) < 1e-9
    ok &= abs(last["relative_time"] - (c["cheap_time_s"] + r["exact_time_s"]) / r["exact_time_s"]) < 1e-9
print(f"questions {r['questions']}; cheap models {len(r['cheap'])}; signals "
      f"{' '.join(sorted(signals, key=['p1', 'in_passages', 'agreement'].index))}; curve from the "
      f"cheap accuracy to the exact accuracy: {'yes' if ok else 'no'}")
