#!/usr/bin/env python3
"""Does certification hold on inputs it did not see? Measured, not assumed.

For each kernel: tunes it (static, then dynamic from the static frontier,
on the tuning input, as benchmarks/kernels.py does), measures the exact
configuration and every dynamic frontier point once on a pool of fresh
seeded inputs (instances 1000...), keeping each input's QoS. For each
compound system (rag_bm25, rag_kb, llm_tools): measures the exact
configuration and every point of its committed frontiers
(benchmarks/results/compound/<system>/{static,dynamic}/pareto.csv, tuned on
the tuning questions) on every question the tuning did not use (the
validation and evaluation splits), keeping each answer's score. Then, over
--splits seeded random re-splits of the pool into a calibration half and a
test half, certifies each loss level's pick on the calibration half (the
tuner's fixed-sequence test, approx_runtime.certify) and checks it on the
test half. Reports per level:

- the violation rate: how often the certified pick's loss on the test half
  exceeds the level (target <= delta), next to the uncertified point pick's
  (the fastest point whose calibration-half loss meets the level: the rule
  tuning used before certification);
- the certified speedup against the point pick's (target: keep >= 80 % of
  it where a real trade-off exists);
- how the bound tightens with the calibration size (the median upper bound
  of the most accurate approximate point, and the median certified speedup,
  for calibration sets of 15 ... pool/2 inputs).

Replayable: the per-input outcomes are stored (outcomes.json), so the splits
cost nothing after one measurement pass (--replay skips the measuring).
Speedups are the runtime-table build's total time on the pool against its
exact configuration's (the certified quantity is the loss, not the time).

usage: validity.py [KERNEL|SYSTEM ...] [--size small] [--pool N] [--splits S]
                   [--max-evals N] [--delta D] [--build DIR] [--results DIR]
                   [--work DIR] [--replay]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)
from kernels import CLANG, KERNELS, pareto_params  # noqa: E402  (the kernels' sources and metrics)
sys.path.insert(0, os.path.join(BENCH, "compound"))
import compound  # noqa: E402  (the compound systems, their builds and runs)

LEVELS = (0.01, 0.03, 0.06, 0.09)
FIRST_POOL_INSTANCE = 1000


def log(msg):
    print(f"[certify] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def measure_pool(args, tools, name, work):
    """Tunes `name` and measures its exact configuration and every dynamic
    frontier point on the pool: {"configs": [...], "times": [...],
    "scores": [[per input]...], "tuning_qos": [...]} (index 0: exact)."""
    src, metric = os.path.join(BENCH, KERNELS[name][0]), KERNELS[name][1]
    os.makedirs(os.path.join(work, "ref"), exist_ok=True)
    native, table = os.path.join(work, "native"), os.path.join(work, "table")
    run([CLANG, "-O3", src, "-o", native, "-lm"])
    run([tools["approx-cc"], "-O3", "--approx-runtime-table", src, "-o", table])
    pool = list(range(FIRST_POOL_INSTANCE, FIRST_POOL_INSTANCE + args.pool))
    log(f"{name}: exact outputs of the tuning input and {len(pool)} pool inputs")
    for i in [0] + pool:
        run([native, "--size", args.size, "--instance", str(i), "--output",
             os.path.join(work, "ref", f"{args.size}-{i}.out")])
    evaluate = " ".join([os.path.join(BENCH, "common", "evaluate.sh"), tools["approx-qos"],
                         os.path.join(work, "ref"), table, args.size, *metric])
    frontier = None
    for mode in ("static", "dynamic"):
        log(f"{name}: tuning the {mode} space ({args.max_evals} evaluations)")
        cmd = [tools["approx-tune"], "--space", src, "--eval", evaluate, "--mode", mode,
               "--qos-min", "0.91", "--max-evals", str(args.max_evals), "--seed", "1",
               "--repetitions", "1", "--out", os.path.join(work, mode), "--quiet"]
        if mode == "dynamic":
            cmd += ["--start-from", os.path.join(work, "static", "pareto.csv")]
        run(cmd)
        with open(os.path.join(work, mode, "summary.json")) as f:
            frontier = json.load(f)["frontier"]
    # The exact configuration: every decision and knob value 0 (it need not
    # be on the frontier: an approximation as accurate and faster hides it).
    exact_cfg = {k: (v if "_threshold_" in k else 0) for k, v in frontier[0]["config"].items()}
    points = [exact_cfg] + [p["config"] for p in frontier if p["config"] != exact_cfg]
    tuning_qos = [1.0] + [p["qos"] for p in frontier if p["config"] != exact_cfg]
    out = {"configs": points, "tuning_qos": tuning_qos, "times": [], "scores": [],
           "pool": pool}
    env = dict(os.environ, APPROX_INPUT_SET="calibration",
               APPROX_CALIBRATION_INSTANCES=" ".join(map(str, pool)))
    for k, config in enumerate(points):
        log(f"{name}: measuring point {k + 1}/{len(points)} on the pool")
        with tempfile.TemporaryDirectory() as tmp:
            cfg, detail = os.path.join(tmp, "c.json"), os.path.join(tmp, "detail.txt")
            with open(cfg, "w") as f:
                json.dump(config, f)
            line = run(["/bin/sh", "-c", evaluate],
                       env=dict(env, APPROX_CONFIG=cfg, APPROX_QOS_DETAIL=detail))
            fields = dict(kv.split("=") for kv in line.split("approx-result:")[1].split())
            with open(detail) as f:
                per = dict(l.split() for l in f if l.strip())
        out["times"].append(float(fields["time"]))
        out["scores"].append([min(1.0, max(0.0, float(per[str(i)]))) for i in pool])
    return out


def frontier_configs(results):
    """The configurations of a committed run's static and dynamic frontiers
    with their tuning QoS, and the exact configuration (every decision and
    knob value 0, thresholds as annotated)."""
    import csv
    seen, out, exact = set(), [], None
    for mode in ("static", "dynamic"):
        with open(os.path.join(results, mode, "pareto.csv")) as f:
            for row in csv.DictReader(f):
                config = {k: int(row[k]) for k in pareto_params(row)}
                if exact is None:
                    exact = {k: (v if "_threshold_" in k else 0) for k, v in config.items()}
                key = json.dumps(config, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    out.append((config, float(row["qos"])))
    return exact, [(c, q) for c, q in out if c != exact]


def measure_compound(args, tools, name, work):
    """The exact configuration and every committed frontier point of the
    compound system `name`, run on every question its tuning did not use."""
    results = os.path.join(BENCH, "results", "compound", name)
    with open(os.path.join(results, "summary.json")) as f:
        settings = json.load(f)
    q, st = settings["questions"], settings["settings"]
    cargs = argparse.Namespace(questions=q["tuning"], seed=st["seed"],
                               validation_factor=st.get("validation_factor", 3),
                               passages=st.get("passages_arg", 0), build=os.path.abspath(args.build),
                               results=os.path.join(work, "results"))
    cargs.models, cargs.cache, cargs.venv = compound.env_paths()
    cargs.data = os.path.join(cargs.cache, f"compound-data-{cargs.questions}-{cargs.seed}"
                              + (f"-p{cargs.passages}" if cargs.passages else "")
                              + f"-v{cargs.validation_factor}")
    if not os.path.isfile(os.path.join(cargs.data, "corpus.json")):
        log(f"{name}: building the corpus and question splits into {cargs.data}")
        subprocess.run([sys.executable, os.path.join(BENCH, "compound", "corpus.py"),
                        "--out", cargs.data, "--tuning", str(cargs.questions), "--seed",
                        str(cargs.seed), "--validation-factor", str(cargs.validation_factor),
                        "--passages", str(cargs.passages)], check=True)
    cargs.memo = os.path.join(work, "memo")
    system = compound.System(name, cargs, dict(tools, **{"approx-llm": os.path.join(
        os.path.abspath(args.build), "bin", "approx-llm")}), work)
    spec = system.spec
    if name == "llm_tools":
        system.compile(system.exe("exact"), "--approx-exact")
        system.tool_questions()
    # The pool: every question the tuning did not use.
    pool = os.path.join(cargs.data, f"{spec.questions}-certify-pool.tsv")
    lines = []
    for split in ("validation", "evaluation"):
        with open(os.path.join(cargs.data, f"{spec.questions}-{split}.tsv")) as f:
            lines += [l for l in f if l.strip()]
    lines = lines[:args.pool] if args.pool else lines
    with open(pool, "w") as f:
        f.writelines(lines)
    log(f"{name}: building the runtime-table program")
    system.compile(system.exe("table"), "--approx-runtime-table")
    exact, points = frontier_configs(results)
    system.exact_accuracy = {}
    out = {"configs": [exact] + [c for c, _ in points],
           "tuning_qos": [1.0] + [qos for _, qos in points], "times": [], "scores": [],
           "pool": [f"q{i + 1}" for i in range(len(lines))], "system": name}
    for k, config in enumerate(out["configs"]):
        log(f"{name}: measuring point {k + 1}/{len(out['configs'])} on {len(lines)} questions")
        cfg = os.path.join(work, "config.json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        answers, detail = os.path.join(work, "answers.txt"), os.path.join(work, "detail.txt")
        t, acc, _, _ = system.run_system(system.exe("table"), "certify-pool", True,
                                         output=answers, config=cfg)
        run([tools["approx-qos"], spec.metric, answers, pool, "--detail", detail])
        with open(detail) as f:
            per = dict(l.split() for l in f if l.strip())
        out["times"].append(t)
        out["scores"].append([float(per[i]) for i in out["pool"]])
        log(f"{name}: point {k + 1}: accuracy {acc:.3f}, {t:.0f} s")
    return out


def loss(exact, approx, idx):
    e = sum(exact[i] for i in idx)
    return 1 - sum(approx[i] for i in idx) / e


def replay(ar, m, args):
    """The splits: per level the certified pick's and the point pick's
    violations and speedups; the bound against the calibration size."""
    exact, times = m["scores"][0], m["times"]
    # Candidates most accurate first, as approx-tune orders them: by the
    # QoS on the tuning input, then the slower first.
    order = sorted(range(1, len(m["configs"])),
                   key=lambda k: (-m["tuning_qos"][k], -times[k]))
    n = len(exact)
    # The pool is the population the splits are drawn from: a pick whose
    # loss on the whole pool exceeds the level is wrong whatever a test half
    # says (the test half is itself a sample: a point with no loss at all
    # exceeds 1 % on it about half the time).
    pool_loss = {k: loss(exact, m["scores"][k], range(n)) for k in order}
    levels = {l: {"cert_viol": 0, "point_viol": 0, "cert_speed": [], "point_speed": [],
                  "cert_exact": 0, "cert_pop": 0, "point_pop": 0} for l in LEVELS}
    for split in range(args.splits):
        idx = list(range(n))
        random.Random(split).shuffle(idx)
        cal, test = idx[:n // 2], idx[n // 2:]
        cands = [(times[k], [m["scores"][k][i] for i in cal]) for k in order]
        certs = ar.certify([exact[i] for i in cal], cands, levels=LEVELS,
                           delta=args.delta)
        for c in certs:
            l, r = c["level"], levels[c["level"]]
            k = order[c["pick"]] if c["pick"] >= 0 else 0
            r["cert_exact"] += k == 0
            r["cert_viol"] += k != 0 and loss(exact, m["scores"][k], test) > l + 1e-12
            r["cert_pop"] += k != 0 and pool_loss[k] > l + 1e-12
            r["cert_speed"].append(times[0] / times[k])
            ok = [j for j in order if loss(exact, m["scores"][j], cal) <= l + 1e-12]
            p = min(ok, key=lambda j: times[j]) if ok else 0
            r["point_viol"] += p != 0 and loss(exact, m["scores"][p], test) > l + 1e-12
            r["point_pop"] += p != 0 and pool_loss[p] > l + 1e-12
            r["point_speed"].append(times[0] / times[p])
    rows = []
    for l in LEVELS:
        r = levels[l]
        cs, ps = statistics.median(r["cert_speed"]), statistics.median(r["point_speed"])
        true = [k for k in order if loss(exact, m["scores"][k], range(n)) <= l + 1e-12]
        rows.append({"level": l, "certified_violation_rate": r["cert_viol"] / args.splits,
                     "point_violation_rate": r["point_viol"] / args.splits,
                     "certified_population_violation_rate": r["cert_pop"] / args.splits,
                     "point_population_violation_rate": r["point_pop"] / args.splits,
                     "certified_speedup_median": cs, "point_speedup_median": ps,
                     "kept": cs / ps if ps > 1 else None,
                     "certified_exact_rate": r["cert_exact"] / args.splits,
                     "pool_best_speedup": max([times[0] / times[k] for k in true], default=1.0)})
    # The bound against the calibration size: the most accurate approximate
    # point's upper bound, and the certified speedup at 9 %, medians over
    # the splits.
    tight = []
    first = order[0] if order else None
    for size in sorted({s for s in (15, 30, 60, 100, 200, n // 2) if s <= n // 2}):
        uppers, speeds = [], []
        for split in range(min(args.splits, 50)):
            idx = list(range(n))
            random.Random(10_000 + split).shuffle(idx)
            cal = idx[:size]
            if first is not None:
                uppers.append(ar.loss_upper_bound([exact[i] for i in cal],
                                                  [m["scores"][first][i] for i in cal],
                                                  delta=args.delta))
            (c,) = ar.certify([exact[i] for i in cal],
                              [(times[k], [m["scores"][k][i] for i in cal]) for k in order],
                              levels=(0.09,), delta=args.delta)
            speeds.append(times[0] / times[order[c["pick"]]] if c["pick"] >= 0 else 1.0)
        tight.append({"calibration_inputs": size,
                      "upper_bound_median": statistics.median(uppers) if uppers else None,
                      "certified_speedup_at_9_median": statistics.median(speeds)})
    return {"levels": rows, "tightness": tight,
            "pool_loss": {str(k): v for k, v in pool_loss.items()},
            "pool_speedup": {str(k): times[0] / times[k] for k in order},
            "most_accurate_pool_loss": pool_loss[first] if first else None}


def report(name, size, m, r, args):
    lines = [f"# {name}: certification on held-out re-splits ({size} inputs)", "",
             (f"{len(m['scores'][0])} questions the tuning did not use (validation and "
              "evaluation splits), "
              if "system" in m else
              f"{len(m['scores'][0])} pool inputs (instances {m['pool'][0]}-{m['pool'][-1]}), ") +
             f"{len(m['configs']) - 1} frontier points, {args.splits} random splits into "
             f"calibration and test halves, delta {args.delta}, betting bound. "
             "Violations: how often the pick's loss exceeds the level on the test half, and "
             "on the whole pool (the population the halves are drawn from; the test half is "
             "itself a sample, on which a point with no loss at all exceeds a small level "
             "about half the time). The point pick is the fastest point whose loss on the "
             "calibration half meets the level (the rule before certification).", "",
             "| level | certified: violations test / pool | point pick: violations test / "
             "pool | certified speedup (median) | point-pick speedup (median) | kept | exact "
             "certified | best on the whole pool |", "|---|---|---|---|---|---|---|---|"]
    for x in r["levels"]:
        kept = "-" if x["kept"] is None else f"{x['kept']:.0%}"
        lines.append(f"| <= {x['level'] * 100:g}% | {x['certified_violation_rate']:.1%} / "
                     f"{x['certified_population_violation_rate']:.1%} | "
                     f"{x['point_violation_rate']:.1%} / "
                     f"{x['point_population_violation_rate']:.1%} | "
                     f"{x['certified_speedup_median']:.2f}x | "
                     f"{x['point_speedup_median']:.2f}x | {kept} | "
                     f"{x['certified_exact_rate']:.0%} | {x['pool_best_speedup']:.2f}x |")
    lines += ["", "The bound against the calibration size (medians over the splits): the upper "
              "bound on the most accurate approximate point's loss "
              f"(its loss on the whole pool: {r['most_accurate_pool_loss']:.4f}), and the "
              "speedup certified at <= 9 %.", "",
              "| calibration inputs | upper bound | certified speedup at <= 9 % |",
              "|---|---|---|"]
    for t in r["tightness"]:
        ub = "-" if t["upper_bound_median"] is None else f"{t['upper_bound_median']:.4f}"
        lines.append(f"| {t['calibration_inputs']} | {ub} | "
                     f"{t['certified_speedup_at_9_median']:.2f}x |")
    lines += ["", "Frontier points on the whole pool, in the order certification tests them "
              "(loss, speedup): " + ", ".join(
                  f"{r['pool_loss'][k]:+.4f} / {r['pool_speedup'][k]:.2f}x"
                  for k in r["pool_loss"]), ""]
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kernels", nargs="*", metavar="KERNEL|SYSTEM",
                   help="any of " + ", ".join(list(KERNELS) + list(compound.SYSTEMS))
                        + " (default: kmeans kb)")
    p.add_argument("--size", choices=["tiny", "small", "paper"], default="small")
    p.add_argument("--pool", type=int, default=200,
                   help="pool inputs (kernels, default 200; compound systems: at most N of "
                        "the untuned questions, 0 = all)")
    p.add_argument("--splits", type=int, default=100, help="re-splits (default 100)")
    p.add_argument("--max-evals", type=int, default=120)
    p.add_argument("--delta", type=float, default=0.05)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--results", default=os.path.join(BENCH, "results", "certify"))
    p.add_argument("--work", metavar="DIR", help="keep builds and references in DIR")
    p.add_argument("--replay", action="store_true",
                   help="replay the stored outcomes (<results>/<kernel>-outcomes.json)")
    args = p.parse_args()
    if (args.pool < 4 and args.pool != 0) or args.splits < 1 or not 0 < args.delta < 1:
        p.error("--pool must be at least 4 (0: every untuned question of a compound system), "
                "--splits at least 1, --delta within (0, 1)")
    if args.pool == 0 and any(k in KERNELS for k in args.kernels or ["kmeans"]):
        p.error("--pool 0 is for compound systems only (a kernel's pool is generated)")
    for k in args.kernels:
        if k not in KERNELS and k not in compound.SYSTEMS:
            p.error(f"unknown kernel or system '{k}' (choose from "
                    f"{', '.join(list(KERNELS) + list(compound.SYSTEMS))})")
    bindir = os.path.join(os.path.abspath(args.build), "bin")
    tools = {t: os.path.join(bindir, t) for t in ("approx-cc", "approx-tune", "approx-qos")}
    import approx_runtime as ar
    os.makedirs(args.results, exist_ok=True)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="approx-certify-")
    for name in args.kernels or ["kmeans", "kb"]:
        stored = os.path.join(args.results, f"{name}-outcomes.json")
        if args.replay:
            with open(stored) as f:
                m = json.load(f)
        else:
            if name in compound.SYSTEMS:
                m = measure_compound(args, tools, name, os.path.join(work, name))
                m["size"] = "questions"
            else:
                m = measure_pool(args, tools, name, os.path.join(work, name))
                m["size"] = args.size
            with open(stored, "w") as f:
                json.dump(m, f)
        r = replay(ar, m, args)
        with open(os.path.join(args.results, f"{name}.json"), "w") as f:
            json.dump(dict(r, splits=args.splits, delta=args.delta, size=m["size"]), f, indent=2)
        text = report(name, m["size"], m, r, args)
        with open(os.path.join(args.results, f"{name}.md"), "w") as f:
            f.write(text)
        print(text)


if __name__ == "__main__":
    main()
