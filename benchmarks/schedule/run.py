#!/usr/bin/env python3
"""Schedule and approximation tuned together (issue 42; docs/tuning.md).

chain.mlir is two 512x512 f32 matmuls whose approximations (precision_reduce
on the first, decode_quantize on the second) and tile sizes (upstream's
tile_using_for on every matmul the approximations leave) are all
transform.tune.knob choices. Four ways of tuning them, each with the same
budget of evaluations (one build and run each, eval.sh), on the tuning
inputs:

  approx      the default schedule (no tiling), approximations tuned
  schedule    the schedule tuned, exact
  sequential  the schedule tuned exact (half the budget), then the
              approximations with that schedule (the other half)
  joint       both at once

Each way's picks at QoS loss <= 1 % and <= 3 % are then built again and
measured on held-out inputs (APPROX_INPUT_SET=evaluation) in rounds that
alternate every build with the exact default one; speedups are ratios of
medians against it, measured in the same rounds. All of it once per seed
(--seeds). Results go to benchmarks/results/schedule/ (results.json,
report.md).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from kernels import cpu_name  # noqa: E402  (benchmarks/kernels.py)

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(here))
SPACE = os.path.join(here, "chain.mlir")
APPROX_KNOBS = ("mm1_precision", "mm2_quantize")
SCHEDULE_KNOBS = ("tile_m", "tile_n", "tile_k")
LEVELS = ("1", "3")


def log(msg):
    print(f"[schedule] {time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def fix_knobs(text, values):
    """`text` with each named tune.knob reduced to one option: its value."""
    for name, v in values.items():
        pattern = re.compile(r'(transform\.tune\.knob<"%s">) = \d+ from options = \[[^\]]*\]'
                             % re.escape(name))
        text, n = pattern.subn(r'\1 = %d from options = [%d]' % (v, v), text)
        if n != 1:
            sys.exit(f"error: {SPACE} has no tune.knob {name!r} to fix")
    return text


def default_of(text, name):
    m = re.search(r'transform\.tune\.knob<"%s"> = (\d+) from' % re.escape(name), text)
    return int(m.group(1))


class Bench:
    def __init__(self, a):
        self.a = a
        self.tune_bin = os.path.join(a.build, "bin", "approx-tune")
        self.compile_bin = os.path.join(a.build, "bin", "approx-compile")
        for tool in (self.tune_bin, self.compile_bin):
            if not os.access(tool, os.X_OK):
                sys.exit(f"error: {tool} is not built (scripts/build.sh)")
        self.work = tempfile.mkdtemp(prefix="approx-schedule-")
        with open(SPACE) as f:
            self.text = f.read()

    def variant(self, name, fixed):
        path = os.path.join(self.work, name + ".mlir")
        with open(path, "w") as f:
            f.write(fix_knobs(self.text, fixed))
        return path

    def tune(self, name, space, budget, seed):
        out = os.path.join(self.work, name)
        evaluate = f"sh {os.path.join(here, 'eval.sh')} {self.compile_bin} {space}"
        cmd = [self.tune_bin, "--space", space, "--eval", evaluate, "--qos-min", "0.97",
               "--max-evals", str(budget), "--seed", str(seed),
               "--repetitions", str(self.a.repetitions),
               "--out", out, "--quiet"]
        log(f"{name}: approx-tune, {budget} evaluations")
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        s["wall_s"] = time.perf_counter() - t0
        return s

    def build(self, config, name):
        cfg = os.path.join(self.work, name + ".json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        exe = os.path.join(self.work, name)
        subprocess.run([self.compile_bin, SPACE, os.path.join(here, "chain_driver.c"),
                        f"--approx-config={cfg}", "--Xclang-driver=-march=native", "-o", exe,
                        "-lm"], check=True)
        return exe

    def measure(self, exe):
        env = dict(os.environ, APPROX_INPUT_SET="evaluation", SCHEDULE_RUNS=str(self.a.runs))
        out = subprocess.run([exe], check=True, stdout=subprocess.PIPE, text=True, env=env).stdout
        kv = dict(w.split("=", 1) for w in out.split() if "=" in w)
        return float(kv["time"]), float(kv["qos"])


def picks(summary):
    """Per loss level: the pick's full configuration and tuning speedup."""
    out = {}
    for level in LEVELS:
        p = (summary.get("picks") or {}).get(level)
        if p:
            out[level] = {"config": p["config"], "tuning_speedup": p["tuning"]["speedup"],
                          "tuning_qos": p["tuning"]["qos"]}
    return out


def run_seed(b, a, seed):
    """One seed: the four ways tuned, their picks measured held out."""
    defaults = {k: default_of(b.text, k) for k in SCHEDULE_KNOBS}
    exact = {k: 0 for k in APPROX_KNOBS}
    runs = {}
    runs["approx"] = b.tune(f"approx-{seed}", b.variant("approx", defaults), a.budget, seed)
    runs["schedule"] = b.tune(f"schedule-{seed}", b.variant("schedule", exact), a.budget, seed)
    first = b.tune(f"sequential-1-{seed}", b.variant("sequential-1", exact), a.budget // 2, seed)
    best = first["picks"]["1"]["config"]
    chosen = {k: best[k] for k in SCHEDULE_KNOBS}
    second = b.tune(f"sequential-2-{seed}", b.variant(f"sequential-2-{seed}", chosen),
                    a.budget - a.budget // 2, seed)
    second["evaluations"] += first["evaluations"]
    second["first_schedule"] = chosen
    runs["sequential"] = second
    runs["joint"] = b.tune(f"joint-{seed}", SPACE, a.budget, seed)

    # Held out: every distinct pick and the exact default, alternating.
    baseline = dict(exact, **defaults)
    configs = {"exact default": baseline}
    for way, s in runs.items():
        for level, p in picks(s).items():
            configs[f"{way} <= {level}%"] = p["config"]
    keys = {}
    exes = {}
    for label, cfg in configs.items():
        k = json.dumps(cfg, sort_keys=True)
        if k not in exes:
            log(f"seed {seed}: building {label}")
            exes[k] = b.build(cfg, f"held-{seed}-{len(exes)}")
        keys[label] = k
    times = {k: [] for k in exes}
    qos = {}
    for r in range(a.rounds):
        log(f"seed {seed}: held-out round {r + 1}/{a.rounds}")
        for k, exe in exes.items():
            t, q = b.measure(exe)
            times[k].append(t)
            qos[k] = q
    base_k = keys["exact default"]
    base_t = statistics.median(times[base_k])
    table = {}
    for label, k in keys.items():
        t = statistics.median(times[k])
        table[label] = {"config": configs[label], "median_s": t, "speedup": base_t / t,
                        "qos": qos[k], "loss": max(0.0, qos[base_k] - qos[k]),
                        "times_s": times[k]}
    return {"tuning": {w: {"evaluations": s["evaluations"], "wall_s": s["wall_s"],
                           "picks": picks(s),
                           **({"first_schedule": s["first_schedule"]}
                              if "first_schedule" in s else {})}
                       for w, s in runs.items()},
            "held_out": table}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(repo, "build"))
    ap.add_argument("--budget", type=int, default=40, help="evaluations per way of tuning")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--repetitions", type=int, default=3,
                    help="approx-tune's repetitions per configuration")
    ap.add_argument("--runs", type=int, default=101, help="timed runs per measurement")
    ap.add_argument("--rounds", type=int, default=9,
                    help="held-out rounds (each build once per round, alternating)")
    ap.add_argument("--out", default=os.path.join(repo, "benchmarks", "results", "schedule"))
    a = ap.parse_args()
    b = Bench(a)
    try:
        result = {"budget": a.budget, "seeds": a.seeds, "repetitions": a.repetitions,
                  "runs": a.runs, "rounds": a.rounds, "cpu": cpu_name(),
                  "by_seed": {str(s): run_seed(b, a, s) for s in a.seeds}}
        os.makedirs(a.out, exist_ok=True)
        tmp = os.path.join(a.out, "results.json.tmp")
        with open(tmp, "w") as f:
            json.dump(result, f, indent=1)
        os.replace(tmp, os.path.join(a.out, "results.json"))
        report(result, os.path.join(a.out, "report.md"))
        print(open(os.path.join(a.out, "report.md")).read())
    finally:
        shutil.rmtree(b.work, ignore_errors=True)


WAYS = ("approx", "schedule", "sequential", "joint")


def report(r, path):
    seeds = [str(s) for s in r["seeds"]]
    lines = ["# Schedule and approximation tuned together (issue 42)", "",
             f"`benchmarks/schedule/run.py --budget {r['budget']} --seeds {' '.join(seeds)}` on "
             f"{r['cpu']}: two chained 512x512 f32 matmuls (`benchmarks/schedule/chain.mlir`), "
             "the approximations (precision_reduce on the first, decode_quantize on the second) "
             "and the tile sizes of both (tile_using_for) all `transform.tune.knob`s. Each way of "
             f"tuning had {r['budget']} evaluations (approx-tune, {r['repetitions']} repetitions "
             "each, a build per configuration) on the tuning inputs; its picks were measured on "
             f"held-out inputs in {r['rounds']} rounds alternating every build with the exact "
             f"default one ({r['runs']} timed calls each; median of the rounds), speedups against "
             "the exact default in the same rounds. One row per seed; the last column the median "
             "over seeds.", "",
             "| way | level | " + " | ".join(f"seed {s}: speedup (loss)" for s in seeds)
             + " | median speedup |",
             "|---|---|" + "---|" * len(seeds) + "---|"]
    median = {}  # (way, level) -> the median over seeds
    for way in WAYS:
        for level in LEVELS:
            cells, speeds = [], []
            for s in seeds:
                row = r["by_seed"][s]["held_out"].get(f"{way} <= {level}%")
                if row is None:
                    cells.append("no pick")
                    speeds.append(1.0)
                    continue
                within = row["loss"] <= int(level) / 100
                speed = row["speedup"] if within else 1.0
                speeds.append(speed)
                cells.append(f"{row['speedup']:.2f}x ({100 * row['loss']:.2f}%)"
                             + ("" if within else " over the bound"))
            median[way, level] = statistics.median(speeds)
            lines.append(f"| {way} | <= {level}% | " + " | ".join(cells)
                         + f" | {median[way, level]:.2f}x |")
    lines += ["", "A pick whose held-out loss exceeds its level counts as 1.00x in the median.", ""]
    for level in LEVELS:
        joint = median["joint", level]
        other = max(median[way, level] for way in WAYS if way != "joint")
        lines.append(f"- <= {level}%: joint {joint:.2f}x, best other way {other:.2f}x: "
                     f"joint / best other = {joint / other:.2f} (target 1.2)")
    lines += ["", "Picks per seed:", ""]
    for s in seeds:
        for way in WAYS:
            for level in LEVELS:
                row = r["by_seed"][s]["held_out"].get(f"{way} <= {level}%")
                if row:
                    cfg = ", ".join(f"{k}={v}" for k, v in sorted(row["config"].items()))
                    lines.append(f"- seed {s}, {way} <= {level}%: {cfg}")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
