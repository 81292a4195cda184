#!/usr/bin/env python3
"""Tuning throughput: evaluations per second of approx-tune on
examples/tune/kernel.c with one runtime-table build (configurations set
through APPROX_CONFIG) vs. recompiling the program with approx-cc for every
configuration, as the seed prototype did. Both modes run in the same
session, alternating, and the medians and their ratio are reported.
Usage: run.py BUILD_DIR [rounds]"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

build = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
kernel = os.path.join(root, "examples", "tune", "kernel.c")
cc = os.path.join(build, "bin", "approx-cc")
tuner = os.path.join(build, "bin", "approx-tune")
tmp = tempfile.mkdtemp(prefix="approx-tune-bench-")
table_exe = os.path.join(tmp, "kernel-table")
subprocess.run([cc, kernel, "-O2", "--approx-runtime-table", "-o", table_exe],
               check=True)

modes = {
    "runtime table": (table_exe, 60),
    # A fresh executable per configuration, baked with approx-cc.
    "recompile": (f'{cc} {kernel} -O2 --approx-config="$APPROX_CONFIG" '
                  f'-o {tmp}/kernel-$$ && {tmp}/kernel-$$; rc=$?; '
                  f'rm -f {tmp}/kernel-$$; exit $rc', 8),
}


def tune(command, evals, out):
    subprocess.run([tuner, "--space", kernel, "--eval", command,
                    "--max-evals", str(evals), "--repetitions", "1",
                    "--seed", "1", "--out", out, "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    summary = json.load(open(os.path.join(out, "summary.json")))
    assert summary["failed"] == 0, summary
    # The search's own time (tool start-up and reports excluded); the
    # baseline is one more evaluation.
    return (summary["evaluations"] + 1) / summary["tuning_time_s"]


rates = {m: [] for m in modes}
for r in range(rounds):
    for name, (command, evals) in modes.items():
        rates[name].append(tune(command, evals, os.path.join(tmp, f"{r}-{evals}")))

table = statistics.median(rates["runtime table"])
recompile = statistics.median(rates["recompile"])
print("## Tuning throughput: runtime table vs recompiling\n")
print(f"approx-tune on examples/tune/kernel.c, one run per configuration, "
      f"median of {rounds} alternating rounds; the rate is evaluations over "
      f"the search's time (summary.json `tuning_time_s`). The ratio is about "
      f"(compile + run) / run, so it depends on the program: here a run takes "
      f"a few ms and approx-cc about 0.2 s.\n")
print("| mode | evaluations per round | evaluations/s (median) | ratio |")
print("|---|---|---|---|")
print(f"| recompile per configuration (approx-cc) | {modes['recompile'][1] + 1} | "
      f"{recompile:.2f} | 1.00 |")
print(f"| runtime table (one build) | {modes['runtime table'][1] + 1} | "
      f"{table:.2f} | {table / recompile:.1f}x |")
