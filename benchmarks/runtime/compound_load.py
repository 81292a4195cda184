#!/usr/bin/env python3
"""The runtime controller on an LLM + RAG system under changing load
(docs/runtime.md, issue 40).

rag_bm25 (benchmarks/compound), its runtime-table build, answers a stream of
real NQ-open questions (--questions of the evaluation split of the compound
benchmark's corpus, after the --calibration ones and the --skip ones before
them: questions an earlier run was developed on) with a latency goal per question, while
--load-procs competing CPU-bound processes run during the middle third of
the stream (started and stopped as the system's per-question lines arrive).
The goal lies between the fastest frontier point within --loss and the next
more accurate one, from the most accurate point's time per question measured
first. The same stream runs under the controller (--controller, the tuned
frontier) and on static points (a one-point frontier each): exact (the most
accurate), the fastest, and the best static picks for the average and for
the worst load. Reports per run the deadline-miss rate, the accuracy and the
QoS (accuracy relative to the static exact run's on the same questions,
`approx-qos nq-accuracy`), and the controller's settling after each change.

With --percentile P the controller's goal is on that fraction of the
questions (approx_controller.h's percentile goal); the results then go to
compound_load-pP.json and `scenarios.rag_bm25_pP` (P in percent). With
--scenario NAME they go to compound_load-NAME.json and `scenarios.NAME`
(e.g. a run on another --frontier, kept beside the earlier ones).

Writes compound_load.json and the `scenarios.rag_bm25` entry of summary.json
in --out. Uncached: every LLM call runs."""
import argparse
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

from common import (RESULTS, base_seconds, best_static, goal_point, goal_seconds, rag_table,
                    repo, run, settling, update_scenario, write_json)

sys.path.insert(0, os.path.join(repo, "benchmarks"))
sys.path.insert(0, os.path.join(repo, "benchmarks", "compound"))
from kernels import pareto_params  # noqa: E402  (a pareto.csv's parameter columns)
import corpus  # noqa: E402  (the corpus folders' one naming)
import qa_models  # noqa: E402
from compound import env_paths  # noqa: E402

FRONTIER = os.path.join(repo, "benchmarks", "results", "compound", "rag_bm25", "dynamic",
                        "pareto.csv")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(repo, "build"))
    ap.add_argument("--frontier", default=FRONTIER)
    ap.add_argument("--qa-models", choices=sorted(qa_models.SETS), default="instruct",
                    help="the QA models the frontier was tuned with (default %(default)s)")
    ap.add_argument("--corpus", nargs=3, type=int, default=[150, 500, 500],
                    metavar=("TUNING", "VALIDATION", "EVALUATION"),
                    help="the compound benchmark's splits whose evaluation questions are "
                    "used (default: issue 38's run, 150 500 500)")
    ap.add_argument("--questions", type=int, default=45)
    ap.add_argument("--skip", type=int, default=0,
                    help="evaluation questions left out first, e.g. those an earlier run "
                    "used (default 0)")
    ap.add_argument("--calibration", type=int, default=6,
                    help="questions timed at the most accurate point first (default 6)")
    ap.add_argument("--loss", type=float, default=0.09)
    ap.add_argument("--load-procs", type=int, default=2)
    ap.add_argument("--percentile", type=float, default=0,
                    help="a goal on this fraction of the questions (default: the typical one)")
    ap.add_argument("--scenario",
                    help="the results' name: compound_load-NAME.json, scenarios.NAME "
                    "(default: rag_bm25, with _pP for --percentile P)")
    ap.add_argument("--out", default=RESULTS)
    a = ap.parse_args()
    bindir = os.path.join(a.build, "bin")
    bench, cc, qos = (os.path.join(bindir, t)
                      for t in ("approx-bench-runtime", "approx-cc", "approx-qos"))
    models, cache, _ = env_paths()
    data = corpus.folder(cache, *a.corpus)
    with open(os.path.join(data, "questions-evaluation.tsv")) as f:
        lines = f.readlines()
    if a.skip < 0 or len(lines) < a.skip + a.questions + a.calibration:
        sys.exit(f"error: {data} has {len(lines)} evaluation questions, fewer than "
                 f"{a.skip + a.questions + a.calibration} (--skip, --calibration and "
                 "--questions), or --skip is negative")
    lines = lines[a.skip:]
    tmp = tempfile.mkdtemp(prefix="approx-compound-load-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    exe = rag_table(cc, a.build, tmp)
    stream = os.path.join(tmp, "stream.tsv")
    calib = os.path.join(tmp, "calibration.tsv")
    with open(calib, "w") as f:
        f.writelines(lines[:a.calibration])
    with open(stream, "w") as f:
        f.writelines(lines[a.calibration:a.calibration + a.questions])
    points = json.loads(run([bench, "points", "--frontier", a.frontier]))
    header = open(a.frontier).readline().strip().split(",")
    params = pareto_params(header)

    def one_point(p):
        """A frontier of point p alone: the controller holds it."""
        path = os.path.join(tmp, f"point{p}.csv")
        with open(path, "w") as f:
            f.write("time_s,qos," + ",".join(params) + "\n")
            f.write(f"1,{points[p]['qos']}," + ",".join(str(points[p]["config"][n])
                                                       for n in params) + "\n")
        return path

    third = a.questions // 3

    def system(frontier, goal, questions, load):
        """Runs the system; returns its per-question units and the answers'
        accuracy."""
        out = os.path.join(tmp, "answers.txt")
        env = {k: v for k, v in os.environ.items()
               if k not in ("APPROX_CONFIG", "APPROX_LLM_CACHE")}
        cmd = [exe, "--passages", os.path.join(data, "passages.tsv"), "--questions", questions,
               "--models", models, *qa_models.qa_arg(a.qa_models), "--output", out,
               "--controller", frontier, "--target", repr(goal)]
        if a.percentile:
            cmd += ["--percentile", repr(a.percentile)]
        print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        units, competitors, rest = [], [], []
        try:
            for line in proc.stderr:
                f = line.split()
                if not line.startswith("rag: unit "):
                    rest.append(line)
                    continue
                u = {"unit": int(f[2]), "point": int(f[4]), "seconds": float(f[6]),
                     "missed": int(f[8])}
                u["loaded"] = bool(competitors)
                units.append(u)
                print(f"unit {u['unit']} {'loaded' if u['loaded'] else 'idle  '}: point "
                      f"{u['point']} {u['seconds']:.2f} s" + (" missed" if u["missed"] else ""),
                      file=sys.stderr, flush=True)
                n = len(units)
                if load and n == third:
                    competitors = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                                   for _ in range(a.load_procs)]
                if load and n == 2 * third:
                    stop(competitors)
                    competitors = []
        finally:
            stop(competitors)
        proc.wait()
        if proc.returncode != 0:
            sys.exit(f"error: {exe} failed:\n{''.join(rest)}")
        accuracy = float(run([qos, "nq-accuracy", out, questions]))
        return units, accuracy

    # The most accurate point's time per question, idle.
    most = len(points) - 1
    calibration, _ = system(one_point(most), 1e9, calib, False)
    exact_seconds = sorted(u["seconds"] for u in calibration)[len(calibration) // 2]
    k = goal_point(points, a.loss)
    goal = goal_seconds(points, k, exact_seconds)

    def summary(units, accuracy, exact_accuracy):
        return {"deadline_miss_rate": sum(u["missed"] for u in units) / len(units),
                "accuracy": accuracy,
                "qos": accuracy / exact_accuracy if exact_accuracy else None}

    runs = {"static exact": system(one_point(most), goal, stream, True)}
    runs["controller"] = system(a.frontier, goal, stream, True)
    rel = {p["point"]: p["relative_time"] for p in points}
    idle, loaded = base_seconds(runs["controller"][0], rel, [third, 2 * third],
                                min(3, third // 3))
    mean = (idle * (a.questions - third) + loaded * third) / a.questions
    statics = {"exact": most, "fastest": 0, "average_load": best_static(points, mean, goal),
               "worst_load": best_static(points, loaded, goal)}
    for name in ("fastest", "average_load", "worst_load"):
        p = statics[name]
        runs[f"static {name}"] = runs["static exact"] if p == most else \
            system(one_point(p), goal, stream, True)
    exact_accuracy = runs["static exact"][1]
    ctl_units = runs["controller"][0]
    scenario = dict(summary(*runs["controller"], exact_accuracy), system="rag_bm25",
                    settling_units=settling([u["point"] for u in ctl_units], [third, 2 * third],
                                            a.questions),
                    questions=a.questions, skipped=a.skip, load_units=[third, 2 * third],
                    load_procs=a.load_procs, target_seconds=goal, percentile=a.percentile,
                    qa_models=a.qa_models, frontier=os.path.relpath(a.frontier, repo),
                    question_seconds_idle=idle, question_seconds_loaded=loaded,
                    static={name: dict(summary(*runs[f"static {name}"], exact_accuracy),
                                       point=p) for name, p in statics.items()})
    suffix = f"-p{round(100 * a.percentile)}" if a.percentile else ""
    name = a.scenario or "rag_bm25" + suffix.replace("-", "_")
    write_json(os.path.join(a.out, f"compound_load-{a.scenario}.json" if a.scenario
                            else f"compound_load{suffix}.json"), {
        "frontier": os.path.relpath(a.frontier, repo), "points": points,
        "runs": {name: {"units": u, "accuracy": acc} for name, (u, acc) in runs.items()},
        "scenario": scenario})
    update_scenario(a.out, name, scenario)
    print(f"rag_bm25 ({a.qa_models} models), {a.questions} questions, {a.load_procs} competing "
          f"processes during questions {third}-{2 * third - 1}; goal {goal:.2f} s per question "
          f"(most accurate point: {idle:.2f} s idle, {loaded:.2f} s loaded)")
    print(f"{'run':<22}{'point':>8}{'deadline misses':>18}{'accuracy':>10}{'QoS':>8}")
    rows = [("controller", "-", scenario)] + [(f"static {n}", statics[n], scenario["static"][n])
                                              for n in statics]
    for name, p, r in rows:
        print(f"{name:<22}{p:>8}{r['deadline_miss_rate']:>18.3f}{r['accuracy']:>10.3f}"
              f"{r['qos']:>8.3f}")
    print(f"controller settling: {scenario['settling_units']} questions")


def stop(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


if __name__ == "__main__":
    main()
