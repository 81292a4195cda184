#!/usr/bin/env python3
"""How the approx pipeline scales with the number of knobs.

Generates modules of N annotated functions (a third each: loop_perforate
decision trees sharing one state function, static loop_perforate, and
func_substitute decision trees with a variant each), runs
`approx-opt --approx-pipeline` on each and reports the median wall time, the
time per knob and the slowest pass per knob (from --mlir-timing). Linear
behaviour shows as a flat time per knob; a pass that looks symbols up from
scratch for every knob shows as a time per knob growing with N.

usage: benchmarks/scale/knobs.py BUILD_DIR [--sizes 1000,10000,100000] [--runs 3]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def module_text(n):
    out = ["func.func @state(%x: i32) -> i32 {\n  return %x : i32\n}"]
    for i in range(n):
        kind = i % 3
        if kind == 2:
            out.append(f"""func.func @f{i}(%x: i32) -> i32 {{
  %c = arith.constant 1 : i32
  %r = arith.addi %x, %c : i32
  return %r : i32
}}
func.func @approx_f{i}_1(%x: i32) -> i32 {{
  return %x : i32
}}
approx.util.annotation.decision_tree <{{func_name = "f{i}", transform_type = "func_substitute", state_indices = array<i64: 0>, state_function = "state", thresholds = array<i32: 5>, decisions = array<i32: 0, 1>}}>""")
            continue
        out.append(f"""func.func @f{i}(%x: i32) -> i32 {{
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %x step %c1 iter_args(%a = %c0) -> i32 : i32 {{
    %s = arith.addi %a, %i : i32
    scf.yield %s : i32
  }}
  return %r : i32
}}""")
        if kind == 0:
            out.append(f'approx.util.annotation.decision_tree <{{func_name = "f{i}", transform_type = "loop_perforate", state_indices = array<i64: 0>, state_function = "state", thresholds = array<i32: 5, 10>, decisions = array<i32: 0, 2, 3>}}>')
        else:
            out.append(f'approx.util.annotation.static_transform <{{func_name = "f{i}", transform_type = "loop_perforate", knob_val = 2 : i32}}>')
    return "\n".join(out) + "\n"


def slowest_pass(timing):
    """(name, seconds) of the slowest approx pass in --mlir-timing output."""
    best = ("", 0.0)
    for m in re.finditer(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\w+Approx\w*|EmitManagement)$",
                         timing, re.M):
        if float(m.group(1)) > best[1]:
            best = (m.group(2), float(m.group(1)))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--sizes", default="1000,3000,10000,30000,100000")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "approx-opt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(s) for s in args.sizes.split(",")]:
            path = os.path.join(tmp, f"knobs{n}.mlir")
            with open(path, "w") as f:
                f.write(module_text(n))
            times = []
            for r in range(args.runs):
                print(f"  {n} knobs, run {r + 1}/{args.runs} ...", file=sys.stderr, flush=True)
                start = time.perf_counter()
                p = subprocess.run([opt, path, "--approx-pipeline", "-o", os.devnull,
                                    "--mlir-timing"], capture_output=True, text=True)
                times.append(time.perf_counter() - start)
                if p.returncode != 0:
                    sys.exit(f"approx-opt failed on {n} knobs:\n{p.stderr[-2000:]}")
                timing = p.stderr
            name, secs = slowest_pass(timing)
            rows.append((n, statistics.median(times), name, secs))
    base = rows[0][1] / rows[0][0]
    print("| knobs | median s | us/knob | vs smallest | slowest approx pass | its us/knob |")
    print("|---|---|---|---|---|---|")
    for n, t, name, secs in rows:
        print(f"| {n} | {t:.2f} | {t / n * 1e6:.1f} | {t / n / base:.2f}x | {name} | {secs / n * 1e6:.1f} |")


if __name__ == "__main__":
    main()
