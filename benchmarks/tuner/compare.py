#!/usr/bin/env python3
"""approx-tune against OpenTuner and Optuna on synthetic spaces with known
optima.

For each space kind (spaces.py: the hand-made 'easy' and 'hard', and the
generated families 'gen-small', 'gen-medium', 'gen-hard') and each of N seeds, the
space instance generated from the seed is tuned by approx-tune's search (the
library, in process through approx_runtime.tune, seeded with the seed; one
run per budget), by OpenTuner 0.8.8 driven as the seed's runtime drives it
(ot_driver.py, in OpenTuner's own environment) and, given --optuna-python,
by Optuna 4.5's TPE and NSGA-II samplers (optuna_driver.py, in Optuna's own
environment); each peer makes one run of the largest budget, read at every
budget (their searches do not depend on the budget). Each budget counts
distinct configurations measured. The result of a run at a budget is the
ratio of the fastest configuration meeting the QoS bound to the optimum (1.0
= optimal; the exact configuration, always feasible, counts for all).
Printed and written as a table: median and worst ratio per budget and tuner,
and per peer a one-sided Wilcoxon signed-rank test over the seeds (paired:
the tuners see the same instances) of approx-tune being closer.

usage: compare.py [--kinds easy,hard,...] [--seeds 20] [--first-seed 1]
                  [--budgets 50,100,200,400,1000]
                  --opentuner-python PY [--optuna-python PY] [--out DIR]
(benchmarks/tuner/run.sh sets up the peers' environments and calls this.)
"""
import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spaces  # noqa: E402


def log(msg):
    print(f"compare: {msg}", file=sys.stderr, flush=True)


def best_ratio(trace, budget, qos_min, optimum):
    feasible = [t for t, q in trace[:budget] if q >= qos_min]
    return min([1.0] + feasible) / optimum


def run_approx_tune(space, seed, budget):
    import approx_runtime as ar
    trace = []

    def evaluate(config):
        t, q = space.evaluate(config)
        trace.append((t, q))
        return t, q

    # One call per configuration: the synthetic evaluator is deterministic
    # (no noise to measure), and the trace counts configurations.
    ar.tune(space.mlir(), evaluate, accuracy_threshold=space.qos_min, time_budget=0,
            database=None, max_evals=budget, seed=seed, progress=False, repetitions=1)
    # The baseline (exact configuration) is measured first and not counted.
    return trace[1:]


def run_peer(python, driver_args, kind, seed, budget):
    """A peer's driver (ot_driver.py, optuna_driver.py) on the space of
    `kind` and `seed`, tuner seed `seed`: its trace of (time, qos)."""
    # In a directory of its own: OpenTuner writes opentuner.log where it runs.
    with tempfile.TemporaryDirectory(prefix="tuner-peer-") as cwd:
        out = subprocess.run([python, *driver_args, kind, str(seed), str(seed), str(budget)],
                             check=True, capture_output=True, text=True, cwd=cwd)
    trace = []
    for line in out.stdout.splitlines():
        r = json.loads(line)
        trace.append((r["time"], r["qos"]))
    return trace


def wilcoxon_greater(diffs):
    """One-sided exact p-value of the Wilcoxon signed-rank test that the
    differences are positive (zeros dropped; average ranks for ties)."""
    d = [x for x in diffs if abs(x) > 1e-12]
    n = len(d)
    if n == 0:
        return 1.0
    order = sorted(range(n), key=lambda i: abs(d[i]))
    ranks = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and abs(abs(d[order[j + 1]]) - abs(d[order[i]])) < 1e-12:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    w = sum(r for r, x in zip(ranks, d) if x > 0)
    if n <= 16:
        count = sum(1 for signs in itertools.product((0, 1), repeat=n)
                    if sum(r for r, s in zip(ranks, signs) if s) >= w - 1e-9)
        return count / 2 ** n
    mean, sd = n * (n + 1) / 4, (n * (n + 1) * (2 * n + 1) / 24) ** 0.5
    z = (w - mean - 0.5) / sd
    return 0.5 * (1 - __import__("math").erf(z / 2 ** 0.5))


# The peers: name -> (the option naming its Python, its driver's arguments),
# and their names in the table.
PEERS = {"opentuner": ("opentuner_python", ["ot_driver.py"]),
         "optuna-tpe": ("optuna_python", ["optuna_driver.py", "tpe"]),
         "optuna-nsga2": ("optuna_python", ["optuna_driver.py", "nsga2"])}
TITLES = {"approx-tune": "approx-tune", "opentuner": "OpenTuner",
          "optuna-tpe": "Optuna TPE", "optuna-nsga2": "Optuna NSGA-II"}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kinds", default=",".join(spaces.KINDS[:2] + ["gen-small", "gen-medium",
                                                                    "gen-hard"]),
                   help="space kinds (spaces.KINDS; default %(default)s)")
    p.add_argument("--seeds", type=int, default=20,
                   help="instances (and tuner seeds) per kind (default %(default)s)")
    p.add_argument("--first-seed", type=int, default=1,
                   help="the first seed (default %(default)s; the search was developed on "
                        "seeds 1-10, so 101 and up are held out)")
    p.add_argument("--budgets", default="50,100,200,400,1000")
    p.add_argument("--opentuner-python", required=True,
                   help="python of an environment with OpenTuner 0.8.8 (run.sh makes one)")
    p.add_argument("--optuna-python",
                   help="python of an environment with Optuna 4.5.0 (run.sh makes one); "
                        "without it, no Optuna columns")
    p.add_argument("--out", help="write compare.md and compare.json here")
    args = p.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    kinds = args.kinds.split(",")
    for k in kinds:
        if k not in spaces.KINDS:
            p.error(f"unknown space kind '{k}' (choose from {', '.join(spaces.KINDS)})")
    peers = [n for n, (opt, _) in PEERS.items() if getattr(args, opt)]
    results = {}
    started = time.time()
    for kind in kinds:
        rows = {t: {b: [] for b in budgets} for t in ["approx-tune"] + peers}
        optima = []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            space = spaces.generate(kind, seed)
            optimum, _ = space.optimum()
            optima.append(optimum)
            for b in budgets:
                trace = run_approx_tune(spaces.generate(kind, seed), seed, b)
                rows["approx-tune"][b].append(best_ratio(trace, b, space.qos_min, optimum))
            for peer in peers:
                opt, driver = PEERS[peer]
                trace = run_peer(getattr(args, opt), [os.path.join(HERE, driver[0])] + driver[1:],
                                 kind, seed, max(budgets))
                for b in budgets:
                    rows[peer][b].append(best_ratio(trace, b, space.qos_min, optimum))
            log(f"{kind} seed {seed}: " + " | ".join(
                f"{t} " + " ".join(f"{rows[t][b][-1]:.3f}" for b in budgets) for t in rows)
                + f" ({time.time() - started:.0f} s)")
        results[kind] = {"optima": optima, "ratios": {t: {str(b): v for b, v in r.items()}
                                                      for t, r in rows.items()}}
    md = table(results, budgets, args)
    print(md)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "compare.md"), "w") as f:
            f.write(md)
        with open(os.path.join(args.out, "compare.json"), "w") as f:
            json.dump(results, f, indent=1)


def ahead(mine, theirs):
    """(p, verdict) of the one-sided paired test that `mine` (ratios to
    the optimum, lower is better) is closer than `theirs`."""
    pval = wilcoxon_greater([y - x for x, y in zip(mine, theirs)])
    if all(abs(x - y) < 1e-12 for x, y in zip(mine, theirs)):
        return pval, "tie"
    return pval, "yes (p < 0.05)" if pval < 0.05 else "not significant"


def table(results, budgets, args):
    tuners = list(next(iter(results.values()))["ratios"])
    peers = tuners[1:]
    out = ["# approx-tune against " + " and ".join(TITLES[t] for t in peers)
           + " on synthetic spaces with known optima", "",
           f"Ratio of the best configuration meeting the QoS bound to the optimum (1.000 = "
           f"optimal), over seeds {args.first_seed}..{args.first_seed + args.seeds - 1} (each seed its own space instance and tuner "
           "seed; the gen-* kinds are generated families, spaces.py); budgets count distinct "
           "configurations measured. p: one-sided Wilcoxon signed-rank test (paired by seed) "
           "that approx-tune is closer than the peer. Written by `benchmarks/tuner/run.sh` "
           "(benchmarks/tuner/compare.py).", ""]
    for kind, r in results.items():
        s = spaces.generate(kind, 1)
        if kind in spaces.FAMILIES:
            f = spaces.FAMILIES[kind]
            head = (f"## {kind}: generated, {f.knobs[0]}-{f.knobs[1]} knobs, "
                    f"{f.thresholds[0]}-{f.thresholds[1]} thresholds each, "
                    f"qos >= {f.qos_min[0]}-{f.qos_min[1]}")
        else:
            head = (f"## {kind}: {len(s.knobs)} knobs, {len(s.parameters())} parameters, "
                    f"qos >= {s.qos_min}" + (f", interacting pairs {s.pairs}" if s.pairs else ""))
        cols = ["budget"] + [f"{TITLES[t]} median | {TITLES[t]} worst" for t in tuners] + [
            f"p vs {TITLES[t]} | ahead of {TITLES[t]}" for t in peers]
        width = 1 + 2 * len(tuners) + 2 * len(peers)
        out += [head, "", "| " + " | ".join(cols) + " |", "|" + "---|" * width]
        for b in budgets:
            ratios = {t: r["ratios"][t][str(b)] for t in tuners}
            cells = [str(b)] + [f"{statistics.median(ratios[t]):.3f} | {max(ratios[t]):.3f}"
                                for t in tuners]
            for t in peers:
                pval, verdict = ahead(ratios["approx-tune"], ratios[t])
                cells.append(f"{pval:.3g} | {verdict}")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    main()
