#!/usr/bin/env python3
"""A deployment frontier for rag_bm25 under load (docs/runtime.md, issue 40):
the compound benchmark's frontier widened with cheaper points, tuned by
approx-tune on the tuning questions.

The compound benchmark's dynamic frontier (benchmarks/results/compound/
rag_bm25/dynamic/pareto.csv, tuned at QoS >= 0.91) spans 2.3x, and all its
points answer with the exact model (Qwen2.5-Coder 1.5B): under a competitor
that slows a question 1.5-2.2x no point of it meets a goal set near its
fast end. This run measures that frontier's points again, and, from its
fastest point, the same configuration answered by each cheaper QA model of
the instruct set for every question, with two or one passages; then it
searches the dynamic space from there (approx-tune --mode dynamic
--start-from) with a low QoS floor (--qos-min, default 0.5). Each
configuration runs the first --questions tuning questions of the compound
benchmark's corpus (none of them in the evaluation split that
compound_load.py serves), LLM calls memoised in --memo as in the compound
benchmark (a replayed call is charged the time it took when measured).

Writes approx-tune's results (pareto.csv, summary.json, plot.svg, ...) to
--out: compound_load.py --frontier OUT/pareto.csv serves the stream with
it."""
import argparse
import atexit
import csv
import os
import shutil
import subprocess
import sys
import tempfile

from common import RAG_SOURCE, RESULTS, rag_table, repo, run

sys.path.insert(0, os.path.join(repo, "benchmarks"))
sys.path.insert(0, os.path.join(repo, "benchmarks", "compound"))
from kernels import pareto_params  # noqa: E402  (a pareto.csv's parameter columns)
import corpus  # noqa: E402  (the corpus folders' one naming)
import qa_models  # noqa: E402
from compound import env_paths  # noqa: E402

COMPOUND = os.path.join(repo, "benchmarks", "results", "compound", "rag_bm25", "dynamic",
                        "pareto.csv")
# rag_bm25.c's knobs the candidates set: its answer model per question (the
# decision tree over answer(), decision values = indices into --qa-model)
# and the passages in the prompt (build_prompt(): decision 1 = one passage).
ANSWER = ("answer_decision_0", "answer_decision_1")
PROMPT = ("build_prompt_decision_0", "build_prompt_decision_1")


def candidates(frontier, models, path):
    """From the fastest point of `frontier`, the same configuration with
    each cheaper QA model (1 .. models-1) for every question, with its own
    passages and with one; written as a pareto.csv approx-tune starts from.
    Returns the number of starting points: the frontier's and these."""
    with open(frontier) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"error: {frontier}: no frontier points")
    params = pareto_params(rows[0])
    for k in ANSWER + PROMPT:
        if k not in params:
            sys.exit(f"error: {frontier}: no column {k} (not rag_bm25's dynamic frontier?)")
    fastest = min(rows, key=lambda r: float(r["time_s"]))
    out = []
    for m in range(1, models):
        for passages in (None, 1):
            c = {k: fastest[k] for k in params}
            c.update({k: str(m) for k in ANSWER})
            if passages:
                c.update({k: str(passages) for k in PROMPT})
            out.append(c)
    with open(path, "w") as f:
        f.write("time_s,qos," + ",".join(params) + "\n")
        for c in out:
            f.write("0,0," + ",".join(c[k] for k in params) + "\n")
    return len(rows) + len(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(repo, "build"))
    ap.add_argument("--frontier", default=COMPOUND,
                    help="the frontier widened (default: the compound benchmark's)")
    ap.add_argument("--qa-models", choices=sorted(qa_models.SETS), default="instruct")
    ap.add_argument("--corpus", nargs=3, type=int, default=[150, 500, 500],
                    metavar=("TUNING", "VALIDATION", "EVALUATION"),
                    help="the compound benchmark's splits (default: issue 38's run)")
    ap.add_argument("--questions", type=int, default=40,
                    help="tuning questions each configuration answers (default 40)")
    ap.add_argument("--qos-min", type=float, default=0.5)
    ap.add_argument("--search-evals", type=int, default=8,
                    help="evaluations after the starting points (default 8)")
    ap.add_argument("--time-budget", type=float, default=3600)
    ap.add_argument("--memo", help="LLM memo folder (default: the cache's llm-memo-load)")
    ap.add_argument("--out", default=os.path.join(RESULTS, "rag_bm25-load-frontier"))
    a = ap.parse_args()
    bindir = os.path.join(a.build, "bin")
    cc, tune, qos = (os.path.join(bindir, t) for t in ("approx-cc", "approx-tune", "approx-qos"))
    if not os.path.isfile(a.frontier):
        sys.exit(f"error: --frontier {a.frontier}: no such file")
    if a.questions < 1 or a.search_evals < 0:
        sys.exit("error: --questions must be at least 1 and --search-evals at least 0")
    models, cache, _ = env_paths()
    memo = a.memo or os.path.join(cache, "llm-memo-load")
    os.makedirs(memo, exist_ok=True)
    data = corpus.folder(cache, *a.corpus)
    with open(os.path.join(data, "questions-tuning.tsv")) as f:
        have = sum(1 for _ in f)
    if have < a.questions:
        sys.exit(f"error: {data} has {have} tuning questions, fewer than --questions "
                 f"{a.questions}")
    tmp = tempfile.mkdtemp(prefix="approx-load-frontier-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    exe = rag_table(cc, a.build, tmp)
    # evaluate.sh's layout: DATA/questions-tuning.tsv (the first --questions)
    # and REFDIR/tuning.accuracy (the exact configuration's accuracy there).
    sub = os.path.join(tmp, "data")
    os.makedirs(sub)
    os.symlink(os.path.join(data, "passages.tsv"), os.path.join(sub, "passages.tsv"))
    corpus.first_questions(os.path.join(data, "questions-tuning.tsv"), a.questions, sub,
                           "questions-tuning.tsv")
    questions = os.path.join(sub, "questions-tuning.tsv")
    qa = qa_models.qa_arg(a.qa_models)
    answers = os.path.join(tmp, "exact-answers.txt")
    env = {k: v for k, v in os.environ.items() if k != "APPROX_CONFIG"}
    env["APPROX_LLM_CACHE"] = memo
    print(f"load_frontier: the exact configuration on {a.questions} tuning questions "
          "(fills the memo)", file=sys.stderr, flush=True)
    r = subprocess.run([exe, "--passages", os.path.join(sub, "passages.tsv"), "--questions",
                        questions, "--models", models, *qa, "--output", answers], env=env,
                       stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"error: rag_bm25-table failed on the tuning questions (exit status "
                 f"{r.returncode}; its message is above)")
    t = float(r.stdout.strip())
    with open(os.path.join(tmp, "tuning.accuracy"), "w") as f:
        f.write(run([qos, "nq-accuracy", answers, questions]))
    start = os.path.join(tmp, "candidates.csv")
    n = candidates(a.frontier, len(qa_models.models(a.qa_models)), start)
    evaluate = " ".join([os.path.join(repo, "benchmarks", "compound", "evaluate.sh"), qos,
                         "nq-accuracy", "questions", sub, models, tmp, exe, *qa])
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    out = tempfile.mkdtemp(prefix=".load-frontier-", dir=os.path.dirname(os.path.abspath(a.out)))
    os.chmod(out, 0o755)  # mkdtemp's 0700 is for a folder of secrets
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    r = subprocess.run([tune, "--space", RAG_SOURCE, "-I",
                        os.path.join(repo, "runtime", "llm", "include"), "--eval", evaluate,
                        "--mode", "dynamic", "--qos-min", repr(a.qos_min),
                        "--max-evals", str(n + a.search_evals), "--repetitions", "1",
                        "--time-budget", f"{a.time_budget:.0f}", "--timeout", f"{3 * t + 60:.0f}",
                        "--start-from", a.frontier, "--start-from", start,
                        "--out", out, "--db", os.path.join(tmp, "tune.db")], env=env)
    if r.returncode != 0:
        sys.exit(f"error: approx-tune failed (exit status {r.returncode}; its message is "
                 f"above); {a.out} is unchanged")
    # The results replace --out whole, once complete.
    old = a.out + ".old"
    shutil.rmtree(old, ignore_errors=True)
    if os.path.exists(a.out):
        os.replace(a.out, old)
    os.replace(out, a.out)
    shutil.rmtree(old, ignore_errors=True)
    print(f"load_frontier: {os.path.join(a.out, 'pareto.csv')}", file=sys.stderr)


if __name__ == "__main__":
    main()
