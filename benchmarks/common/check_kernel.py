#!/usr/bin/env python3
"""Checks one kernel benchmark at tiny size (used by the lit tests):
 - the exact approx-cc build's output equals the native clang -O3 output (clang++
   for C++) on
   the tuning input and on an evaluation input;
 - every approximate variant runs: the static space is enumerated with
   approx-tune (every transform value of every knob, all decisions of a tree
   equal), and each configuration must succeed with QoS in (0, 1].

usage: check_kernel.py BUILD_BIN KERNEL_SOURCE WORK_DIR METRIC..."""
import csv
import io
import os
import subprocess
import sys

bindir, src, work, metric = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(work, "ref"), exist_ok=True)


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


native, exact, table = (os.path.join(work, n) for n in ("native", "exact", "table"))
peer = "clang++" if src.endswith(".cpp") else "clang"
run(["/usr/lib/llvm-22/bin/" + peer, "-O3", src, "-o", native, "-lm"])
run([os.path.join(bindir, "approx-cc"), "-O3", "--approx-exact", src, "-o", exact])
run([os.path.join(bindir, "approx-cc"), "-O3", "--approx-runtime-table", src, "-o", table])
for i in (0, 1):
    ref = os.path.join(work, "ref", f"tiny-{i}.out")
    out = os.path.join(work, "exact.out")
    run([native, "--size", "tiny", "--instance", str(i), "--output", ref])
    run([exact, "--size", "tiny", "--instance", str(i), "--output", out])
    same = open(ref).read() == open(out).read()
    print(f"instance {i}: exact output equals {peer} -O3: {'yes' if same else 'NO'}")

evaluate = " ".join([os.path.join(here, "evaluate.sh"), os.path.join(bindir, "approx-qos"),
                     os.path.join(work, "ref"), table, "tiny", *metric])
tune = [os.path.join(bindir, "approx-tune"), "--space", src, "--mode", "static",
        "--eval", evaluate, "--max-evals", "100000", "--repetitions", "1",
        "--out", os.path.join(work, "static"), "--quiet"]
run(tune)
history = run(tune[:3] + ["--mode", "static", "--out", os.path.join(work, "static"), "--history"])
rows = [r for r in csv.DictReader(io.StringIO(history)) if r["input_set"] == "tuning"]
bad = [r for r in rows if r["status"] != "ok" or not 0 < float(r["qos"]) <= 1]
qos = [float(r["qos"]) for r in rows]
print(f"{len(rows)} static configurations (exact included): "
      f"{'all ran, QoS in (0, 1]' if not bad else f'{len(bad)} FAILED'}; "
      f"QoS from {min(qos):.4f} to {max(qos):.4f}")
for r in bad:
    print(f"  {r['status']} qos={r['qos']} {r['config']} {r['message']}")
sys.exit(1 if bad else 0)
