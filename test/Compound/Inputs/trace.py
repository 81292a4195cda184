#!/usr/bin/env python3
"""Reads the --trace files of the compound systems for the lit tests.

  trace.py tokens TRACE                 total prompt tokens
  trace.py fewer TRACE_A TRACE_B        'fewer: yes' if every question of B has
                                        fewer prompt tokens than in A
  trace.py route TRACE T LOW HIGH       checks model selection by state: model
                                        HIGH where confidence >= T, else LOW
"""
import sys


def read(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        kv = dict(f.split("=", 1) for f in fields[1:] if "=" in f)
        rows.append(kv)
    return rows


cmd = sys.argv[1]
if cmd == "tokens":
    print("prompt tokens:", sum(int(r["prompt_tokens"]) for r in read(sys.argv[2])))
elif cmd == "fewer":
    a, b = read(sys.argv[2]), read(sys.argv[3])
    ok = len(a) == len(b) and all(int(y["prompt_tokens"]) < int(x["prompt_tokens"])
                                  for x, y in zip(a, b))
    print("fewer:", "yes" if ok else "no")
elif cmd == "route":
    t, low, high = int(sys.argv[3]), sys.argv[4], sys.argv[5]
    rows = read(sys.argv[2])
    bad = [r for r in rows if r["model"] != (high if int(r["confidence"]) >= t else low)]
    used = sorted({r["model"] for r in rows})
    print("routed by state:", "yes" if not bad else f"no {bad}")
    print("models used:", " ".join(used))
