#!/usr/bin/env python3
"""What tuning measures against what deploys: each kernel's exact
configuration run by its runtime-table build (what approx-tune measures)
against its exact build (approx-cc --approx-exact, what the speedups of a
deployment build are compared with), in the same session, alternating,
median of R runs each, on the tuning input.

usage: table_overhead.py [KERNEL ...] [--size tiny|small|paper] [--repetitions R]
                         [--build DIR] [--out FILE]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernels import BENCH, KERNELS, ROOT, log, run  # noqa: E402

LINE = re.compile(r"^(\S+)\s+(threshold|decision|knob_val)\s+(\[[^]]*\]|\{[^}]*\})\s+(-?\d+)\s")


def exact_config(tune, src):
    """Every decision and knob value 0, thresholds as annotated."""
    entries = []
    for line in run([tune, "--space", src, "--list"]).splitlines():
        m = LINE.match(line)
        if m:
            value = m.group(4) if m.group(2) == "threshold" else "0"
            entries.append(f'  "{m.group(1)}": {value}')
    return "{\n" + ",\n".join(entries) + "\n}\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kernels", nargs="*", metavar="KERNEL")
    p.add_argument("--size", choices=["tiny", "small", "paper"], default="paper")
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=os.path.join(BENCH, "results", "table_overhead.md"))
    args = p.parse_args()
    for k in args.kernels:
        if k not in KERNELS:
            p.error(f"unknown kernel '{k}' (choose from {', '.join(KERNELS)})")
    bindir = os.path.join(os.path.abspath(args.build), "bin")
    cc, tune = os.path.join(bindir, "approx-cc"), os.path.join(bindir, "approx-tune")
    rows = []
    with tempfile.TemporaryDirectory(prefix="approx-table-") as work:
        for name in args.kernels or list(KERNELS):
            src = os.path.join(BENCH, KERNELS[name][0])
            exact, table = os.path.join(work, name + "-exact"), os.path.join(work, name + "-table")
            log(f"{name}: building")
            run([cc, "-O3", "--approx-exact", src, "-o", exact])
            run([cc, "-O3", "--approx-runtime-table", src, "-o", table])
            config = os.path.join(work, name + "-exact.json")
            with open(config, "w") as f:
                f.write(exact_config(tune, src))
            out = os.path.join(work, "out")
            cmd = ["--size", args.size, "--instance", "0", "--output", out]
            env = dict(os.environ, APPROX_CONFIG=config)
            times = {"exact": [], "table": []}
            for r in range(args.repetitions):
                times["exact"].append(float(run([exact, *cmd])))
                times["table"].append(float(subprocess.run(
                    [table, *cmd], check=True, capture_output=True, text=True,
                    env=env).stdout))
            e, t = statistics.median(times["exact"]), statistics.median(times["table"])
            log(f"{name}: exact {e:.4f} s, runtime table {t:.4f} s ({t / e:.3f}x)")
            rows.append((name, e, t))
    md = ["# Runtime-table builds' exact configuration against the exact build", "",
          f"Kernel time (the program's own timer) on the tuning input at size {args.size}, "
          f"median of {args.repetitions} alternating runs each, same session. Written by "
          "`benchmarks/table_overhead.py`.", "",
          "| kernel | exact build (s) | runtime table, exact configuration (s) | ratio |",
          "|---|---|---|---|"]
    for name, e, t in rows:
        md.append(f"| {name} | {e:.4f} | {t:.4f} | {t / e:.3f} |")
    text = "\n".join(md) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
