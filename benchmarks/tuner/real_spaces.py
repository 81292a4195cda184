#!/usr/bin/env python3
"""approx-tune against OpenTuner and Optuna on the five kernels' real spaces.

For each kernel of benchmarks/kernels.py (lavamd, kb, bm25, pagerank,
kmeans) at small size: builds its runtime-table program and the exact output
of the tuning input (instance 0); then, for each seed, measures the exact
configuration (2R+1 runs, median) and tunes the dynamic space (decision
trees; QoS >= 0.91, the 9 % level) four ways:

  approx-tune      the command line as a user runs it (--repetitions R
                   --time-tolerance 0, seeded), its results store read back;
  OpenTuner 0.8.8  ot_driver.py, as the seed's runtime drives it;
  Optuna 4.5       optuna_driver.py: TPE (time under the QoS constraint) and
                   NSGA-II (time and 1 - QoS under it);

the peers in their own environments, over spaces.PipeSpace: they propose,
this script measures. Every configuration is measured by the same command
(benchmarks/common/evaluate.sh: the kernel's own timer, approx-qos against
the exact output), R runs, medians kept. Peers see each threshold over its
bounds (sorted and spread to be strictly ascending, as on the synthetic
spaces) and each decision or knob value as an index into its allowed values.
Each configuration is measured as its representative (approx_runtime's
Space.canonical, as approx-tune measures it); a budget counts distinct
representatives, and a peer proposing only repeats (50x the budget) ends.

A run at budget B is judged by its first B configurations:
  hypervolume  the area its measured points dominate in (time / exact time,
               QoS loss), below the reference point (1, 10 % loss), divided
               by 0.10: the time saved at a loss bound, averaged over bounds
               from 0 to 10 % (0: nothing faster than exact within 10 %);
  speedup      the exact time over the fastest point within 3 / 6 / 9 % loss
               (1.0 when none is faster than exact).
Times are normalised by the seed's exact measurement, the same for the four
tuners. Reported: medians over the seeds per kernel, budget and tuner, a
one-sided Wilcoxon signed-rank test (paired by seed) that approx-tune's
hypervolume is larger than each peer's, and the same test over every
(kernel, seed) pair.

usage: real_spaces.py [--kernels lavamd,kb,...] [--seeds 5] [--first-seed 1]
                      [--budgets 50,100,200] [--repetitions 3]
                      --opentuner-python PY --optuna-python PY
                      [--jobs N] [--out DIR] [--work DIR]
       real_spaces.py --render real.json [--out DIR]   (the tables again)
(`benchmarks/tuner/run.sh real` sets up the peers' environments and calls this.)
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import compare  # noqa: E402
import kernels  # noqa: E402  (benchmarks/kernels.py)

QOS_MIN = 0.91
REFERENCE_LOSS = 0.10


def log(msg):
    print(f"real_spaces: {msg}", file=sys.stderr, flush=True)


class RealSpace:
    """A kernel's dynamic space, as the peers see it and as it is measured."""

    def __init__(self, kernel, tools, repetitions):
        import approx_runtime._core as core
        mlir = subprocess.run([tools["approx-cc"], "--emit=annotated", kernel.src],
                              check=True, capture_output=True, text=True).stdout
        self.space = core.Space.from_mlir(mlir, kernel.src)
        self.params = self.space.params
        for p in self.params:
            if p["param_type"] not in ("threshold", "decision", "knob_val"):
                raise SystemExit(f"real_spaces.py: {kernel.name}: parameter {p['name']} of "
                                 f"kind {p['param_type']} is not handled")
        self.command = [os.path.join(kernels.BENCH, "common", "evaluate.sh"),
                        tools["approx-qos"], kernel.refdir, kernel.exe("table"),
                        kernel.args.size, *kernel.metric]
        self.repetitions = repetitions
        self.config_file = os.path.join(kernel.work, "config.json")

    def peer_parameters(self):
        """(name, kind, lower, upper) per parameter: thresholds over their
        bounds, decisions and knob values as indices into their values."""
        return [(p["name"], p["param_type"], p["lower"], p["upper"])
                if p["param_type"] == "threshold" else
                (p["name"], p["param_type"], 0, len(p["values"]) - 1)
                for p in self.params]

    def from_peer(self, proposal):
        """The representative of a peer's proposal: indices mapped to
        values, each knob's thresholds sorted and spread to be strictly
        ascending within their bounds."""
        config, knobs = {}, {}
        for p in self.params:
            v = int(proposal[p["name"]])
            if p["param_type"] == "threshold":
                knobs.setdefault(p["knob"], []).append(p)
                config[p["name"]] = v
            else:
                config[p["name"]] = p["values"][v]
        for ps in knobs.values():
            ps.sort(key=lambda p: p["index"])
            ts = sorted(config[p["name"]] for p in ps)
            for i, p in enumerate(ps):
                ts[i] = max(ts[i], p["lower"], ts[i - 1] + 1 if i else p["lower"])
            for i in range(len(ps) - 1, -1, -1):
                ts[i] = min(ts[i], ps[i]["upper"], ts[i + 1] - 1 if i + 1 < len(ps) else ts[i])
            for p, t in zip(ps, ts):
                config[p["name"]] = t
        return self.space.canonical(config, True)

    def measure(self, config, runs=None):
        """(median time, median qos) of `runs` (default R) runs of the
        evaluation command on the tuning input."""
        with open(self.config_file, "w") as f:
            json.dump(config, f)
        env = dict(os.environ, APPROX_CONFIG=self.config_file, APPROX_INPUT_SET="tuning")
        env.pop("APPROX_QOS_DETAIL", None)
        times, qos = [], []
        for _ in range(runs or self.repetitions):
            out = subprocess.run(self.command, check=True, capture_output=True, text=True,
                                 env=env).stdout
            line = [x for x in out.splitlines() if x.startswith("approx-result:")][-1]
            fields = dict(f.split("=") for f in line.split()[1:])
            times.append(float(fields["time"]))
            qos.append(float(fields["qos"]))
        return statistics.median(times), statistics.median(qos)


def run_approx_tune(kernel, space, tools, seed, budget, work):
    """approx-tune's trace of (time, qos), in the order it measured."""
    db = os.path.join(work, f"approx-tune-{seed}.db")
    for path in (db, db + "-wal", db + "-shm"):
        if os.path.exists(path):
            os.remove(path)
    evaluate = " ".join(space.command)
    subprocess.run([tools["approx-tune"], "--space", kernel.src, "--eval", evaluate,
                    "--mode", "dynamic", "--qos-min", str(QOS_MIN), "--max-evals", str(budget),
                    "--seed", str(seed), "--repetitions", str(space.repetitions),
                    "--time-tolerance", "0", "--db", db,
                    "--out", os.path.join(work, f"approx-tune-{seed}"), "--quiet"],
                   check=True, capture_output=True, text=True)
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT technique, status, time, qos FROM evaluations "
                         "WHERE input_set = 'tuning' AND run = (SELECT max(id) FROM runs) "
                         "ORDER BY seq").fetchall()
    # The exact baseline, measured first, is not one of the budget's.
    return [(t, q) for i, (technique, status, t, q) in enumerate(rows)
            if not (i == 0 and technique == "exact") and status == "ok"]


def run_peer(python, driver, space, seed, budget, work):
    """A peer's driver over spaces.PipeSpace: its trace of (time, qos) of
    distinct representatives, in the order it asked for them."""
    cache, trace, asked = {}, [], 0
    with open(os.path.join(work, "peer.log"), "w") as err:
        proc = subprocess.Popen([python, os.path.join(HERE, driver[0]), *driver[1:], "pipe",
                                 str(seed), str(seed), str(50 * budget)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                text=True, cwd=work)
        proc.stdin.write(json.dumps({"parameters": space.peer_parameters(),
                                     "qos_min": QOS_MIN}) + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            message = json.loads(line)
            if "config" not in message:
                continue  # the driver's own trace line
            asked += 1
            if len(trace) >= budget or asked > 50 * budget:
                proc.stdin.write(json.dumps({"done": True}) + "\n")
                proc.stdin.flush()
                continue
            config = space.from_peer(message["config"])
            key = json.dumps(config, sort_keys=True)
            if key not in cache:
                cache[key] = space.measure(config)
                trace.append(cache[key])
            t, q = cache[key]
            proc.stdin.write(json.dumps({"time": t, "qos": q}) + "\n")
            proc.stdin.flush()
        proc.stdin.close()
        if proc.wait() != 0:
            raise SystemExit(f"real_spaces.py: {driver} exited with {proc.returncode} "
                             f"(see {err.name})")
    return trace


def hypervolume(points):
    """Area dominated by (time ratio, loss) points below (1, REFERENCE_LOSS),
    over REFERENCE_LOSS."""
    pts = sorted((l, r) for r, l in points if l < REFERENCE_LOSS and r < 1)
    area, best = 0.0, 1.0
    for i, (l, r) in enumerate(pts):
        best = min(best, r)
        upto = pts[i + 1][0] if i + 1 < len(pts) else REFERENCE_LOSS
        area += (upto - l) * (1 - best)
    return area / REFERENCE_LOSS


def speedup(points, level):
    return 1 / min([1.0] + [r for r, l in points if l <= level / 100 + 1e-12])


def scores(trace, exact_time, budget):
    points = [(t / exact_time, max(0.0, 1 - q)) for t, q in trace[:budget]]
    return {"hypervolume": hypervolume(points),
            **{f"speedup_{l}": speedup(points, int(l)) for l in kernels.LEVELS}}


def tune_kernel(name, args, budgets, tools, work):
    """Every seed's four runs on kernel `name`: its part of the results."""
    started = time.time()
    kargs = SimpleNamespace(size=args.size, calibration=0, calibration_jobs=1,
                            repetitions=args.repetitions, resume=False,
                            results=os.path.join(work, "unused"))
    kernel = kernels.Kernel(name, kargs, tools, work)
    log(f"{name}: building")
    kernel.build()
    kernel.references()
    space = RealSpace(kernel, tools, args.repetitions)
    tuners = ["approx-tune", *compare.PEERS]
    runs = {t: [] for t in tuners}
    exact_times = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        exact_time, _ = space.measure(space.space.exact(), 2 * args.repetitions + 1)
        exact_times.append(exact_time)
        for t in tuners:
            t0 = time.time()
            if t == "approx-tune":
                # One run at the largest budget: a run is a prefix of one
                # sequence of evaluations whatever its budget (docs/tuning.md).
                trace = run_approx_tune(kernel, space, tools, seed, budgets[-1], kernel.work)
            else:
                option, driver = compare.PEERS[t]
                trace = run_peer(getattr(args, option), driver, space, seed, budgets[-1],
                                 kernel.work)
            # (The trace as written: 4 significant digits of time, 6 of QoS.)
            runs[t].append({"trace": [(float(f"{s:.4g}"), float(f"{q:.6g}")) for s, q in trace],
                            "seconds": time.time() - t0,
                            **{str(b): scores(trace, exact_time, b) for b in budgets}})
        log(f"{name} seed {seed}: hypervolume at {budgets[-1]}: " + " | ".join(
            f"{t} {runs[t][-1][str(budgets[-1])]['hypervolume']:.3f}" for t in tuners)
            + f" ({time.time() - started:.0f} s)")
    return {"exact_time_s": exact_times, "runs": runs, "parameters": len(space.params),
            "dynamic_size": space.space.size(True)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kernels", default=",".join(kernels.KERNELS),
                   help="kernels of benchmarks/kernels.py (default %(default)s)")
    p.add_argument("--seeds", type=int, default=5,
                   help="tuner seeds per kernel (default %(default)s)")
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--budgets", default="50,100,200",
                   help="distinct configurations measured, each read off one run of the "
                        "largest (default %(default)s)")
    p.add_argument("--size", choices=["tiny", "small", "paper"], default="small",
                   help="the kernels' input size (default %(default)s)")
    p.add_argument("--repetitions", type=int, default=3,
                   help="runs per configuration, medians kept (default %(default)s)")
    p.add_argument("--opentuner-python", help="python of OpenTuner 0.8.8's environment")
    p.add_argument("--optuna-python", help="python of Optuna 4.5.0's environment")
    p.add_argument("--jobs", type=int, default=1,
                   help="kernels measured at once (default 1; more share the machine, and "
                        "every tuner's times with it)")
    p.add_argument("--build", default=os.path.join(kernels.ROOT, "build"),
                   help="the project's build directory (default %(default)s)")
    p.add_argument("--out", help="write real.md and real.json here")
    p.add_argument("--work", help="keep builds and stores here (default: a temporary directory)")
    p.add_argument("--render", metavar="REAL_JSON",
                   help="tune nothing: write the tables of an earlier run's real.json again "
                        "(real.md in --out, and standard output)")
    args = p.parse_args()
    if args.render:
        with open(args.render) as f:
            data = json.load(f)
        settings = SimpleNamespace(**data["settings"])
        write(table(data["results"], sorted(int(b) for b in settings.budgets.split(",")),
                    settings), None, args.out)
        return
    if not (args.opentuner_python and args.optuna_python):
        p.error("--opentuner-python and --optuna-python are needed to tune")
    budgets = sorted(int(b) for b in args.budgets.split(","))
    names = args.kernels.split(",")
    for k in names:
        if k not in kernels.KERNELS:
            p.error(f"unknown kernel '{k}' (choose from {', '.join(kernels.KERNELS)})")
    if min(args.seeds, args.repetitions, args.jobs, budgets[0]) < 1:
        p.error("--seeds, --repetitions, --jobs and the budgets must be at least 1")
    bindir = os.path.join(os.path.abspath(args.build), "bin")
    tools = {t: os.path.join(bindir, t) for t in ("approx-cc", "approx-tune", "approx-qos")}
    tools["clang"] = kernels.CLANG
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="approx-real-")
    try:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            done = pool.map(tune_kernel, names, *zip(*[(args, budgets, tools, work)] * len(names)))
            results = dict(zip(names, done))
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    write(table(results, budgets, args), {"settings": vars(args), "results": results}, args.out)


def write(md, data, out):
    print(md)
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "real.md"), "w") as f:
            f.write(md)
        if data:
            with open(os.path.join(out, "real.json"), "w") as f:
                json.dump(data, f, separators=(",", ":"))


def table(results, budgets, args):
    tuners = ["approx-tune", *compare.PEERS]
    peers = tuners[1:]
    seeds = f"seeds {args.first_seed}..{args.first_seed + args.seeds - 1}"
    out = ["# approx-tune against OpenTuner and Optuna on the kernels' real spaces", "",
           f"Dynamic spaces at {args.size} size, QoS >= {QOS_MIN}, {args.repetitions} runs per "
           f"configuration, {seeds} (each its own tuner seed), {args.jobs} kernel(s) measured at once. Cells: median over the seeds. "
           "Hypervolume: time saved, averaged over loss bounds 0-10 % (1 - time ratio; "
           "larger is better); speedup: best at <= 3 / 6 / 9 % loss on the tuning input. "
           "p: one-sided Wilcoxon signed-rank test (paired by seed) that approx-tune's "
           "hypervolume is larger. Written by `benchmarks/tuner/run.sh real` "
           "(benchmarks/tuner/real_spaces.py).", ""]
    wins = {b: {t: 0 for t in peers} for b in budgets}
    for name, r in results.items():
        out += [f"## {name}: {r['parameters']} parameters, {r['dynamic_size']:.3g} "
                f"configurations; exact {statistics.median(r['exact_time_s']) * 1e3:.1f} ms", "",
                "| budget | tuner | hypervolume | speedup <= 3 % | <= 6 % | <= 9 % | p |",
                "|---|---|---|---|---|---|---|"]
        for b in budgets:
            hv = {t: [run[str(b)]["hypervolume"] for run in r["runs"][t]] for t in tuners}
            for t in tuners:
                cells = [str(b), compare.TITLES[t], f"{statistics.median(hv[t]):.3f}"]
                cells += [f"{statistics.median(run[str(b)][f'speedup_{l}'] for run in r['runs'][t]):.2f}x"
                          for l in kernels.LEVELS]
                if t == "approx-tune":
                    cells.append("")
                else:
                    pval = compare.wilcoxon_greater([x - y for x, y in zip(hv["approx-tune"],
                                                                           hv[t])])
                    cells.append(f"{pval:.3g}")
                    wins[b][t] += statistics.median(hv["approx-tune"]) > statistics.median(hv[t])
                out.append("| " + " | ".join(cells) + " |")
        out.append("")
    out += ["## Kernels where approx-tune's median hypervolume is the larger", "",
            "| budget | " + " | ".join(compare.TITLES[t] for t in peers) + " |",
            "|---|" + "---|" * len(peers)]
    out += [f"| {b} | " + " | ".join(f"{wins[b][t]} of {len(results)}" for t in peers) + " |"
            for b in budgets]
    pairs = sum(len(r["runs"]["approx-tune"]) for r in results.values())
    out += ["", f"## All kernels: the {pairs} (kernel, seed) pairs", "",
            "Pairs where approx-tune's hypervolume is the larger, and p of the one-sided "
            "Wilcoxon signed-rank test over all of them (paired by kernel and seed).", "",
            "| budget | " + " | ".join(compare.TITLES[t] for t in peers) + " |",
            "|---|" + "---|" * len(peers)]
    for b in budgets:
        cells = []
        for t in peers:
            diffs = [a[str(b)]["hypervolume"] - x[str(b)]["hypervolume"]
                     for r in results.values()
                     for a, x in zip(r["runs"]["approx-tune"], r["runs"][t])]
            cells.append(f"{sum(d > 0 for d in diffs)} of {pairs}, "
                         f"p = {compare.wilcoxon_greater(diffs):.2g}")
        out.append(f"| {b} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
