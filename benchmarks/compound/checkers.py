#!/usr/bin/env python3
"""The cascade's checker, measured (issue 38, part 2): which signal tells a
cheap model's right answers from its wrong ones, and what a cascade through
rag_bm25's safety contract (a cheap model answers, the checker accepts or
escalates to the exact model) buys against plain model selection.

For the exact model and each cheap model, rag_bm25's runtime-table build
answers the questions with the same retrieval and prompt (--passages K
passages of 120 words), LLM calls memoised (a greedy answer depends only on
its prompt); approx-qos nq-accuracy --detail scores every answer. The signals
of a cheap answer, all known before the exact model runs:
  p1           its first token's probability (the engine's first_token_prob),
  in_passages  whether it occurs in the prompt's passages,
  agreement    whether another cheap model gives the same answer (normalised
               as the scorer normalises; costs that model's call),
each scored by its AUROC (right vs wrong cheap answers; 0.5 = no better than
chance) on the questions given. For p1 the cascade's curve follows: at each
threshold of accept_probability (1: every answer escalated), the share
escalated, the cascade's accuracy (a cheap answer where accepted, else the
exact model's) and its LLM time
relative to the exact model's (the cheap call always, the exact call when
escalated; times as measured when first computed). Plain model selection at
the same escalation share routes questions at random (its expected accuracy
is the mix). Writes benchmarks/results/compound/checkers.{md,json}.

usage: checkers.py [--split tuning] [--first N] [--tuning 150 --validation 500
                   --evaluation 500] [--exact FILE] [--cheap FILE ...] [--passages 2] [--memo DIR]
"""
import argparse
import json
import os
import re
import string
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import corpus  # noqa: E402
from compound import read_trace  # noqa: E402
from corpus import first_questions  # noqa: E402
from premise import (PASSAGES, build_rag_bm25, instruct_setup,  # noqa: E402
                     passages_config, run, wilson)

EXACT = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
CHEAP = ["qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", "gemma-3-270m-q4_k_m.gguf"]
# accept_probability's values in rag_bm25.c (knob values 0..4), then a finer
# grid for the curve.
THRESHOLDS = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6]
CURVE = [i / 20 for i in range(21)]


def log(msg):
    print(f"[checkers] {time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def normalise(text):
    """The scorer's normalisation (SQuAD's): lower case, no punctuation, no
    articles, single spaces."""
    text = "".join(c for c in text.lower() if c not in string.punctuation)
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def auroc(scores, labels):
    """Probability that a right answer scores above a wrong one (ties half):
    the Mann-Whitney U statistic over both classes' sizes; None when a class
    is empty."""
    pos = [s for s, y in zip(scores, labels) if y]
    neg = [s for s, y in zip(scores, labels) if not y]
    if not pos or not neg:
        return None
    ranked = sorted((s, i) for i, s in enumerate(scores))
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[ranked[k][1]] = (i + j) / 2 + 1
        i = j + 1
    rank_pos = sum(r for r, y in zip(ranks, labels) if y)
    return (rank_pos - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def answer_all(exe, data, questions, models_dir, model, passages, memo, work, bindir):
    """One model's answers with `passages` passages: per question (answer,
    right, p1, in_passages), and the run's LLM seconds (memoised calls
    charged the time they took)."""
    config = passages_config(work, passages)
    answers, trace, detail = (os.path.join(work, f"{model}.{ext}")
                              for ext in ("txt", "trace", "detail"))
    env = dict(os.environ, APPROX_CONFIG=config, APPROX_LLM_CACHE=memo)
    r = run([exe, "--passages", os.path.join(data, "passages.tsv"), "--questions", questions,
             "--models", models_dir, "--output", answers, "--trace", trace, "--qa-model", model],
            env=env)
    seconds = float(r.stderr.split("generation ")[1].split()[0]) + float(
        r.stderr.split("(replayed ")[1].split()[0])
    run([os.path.join(bindir, "approx-qos"), "nq-accuracy", answers, questions, "--detail",
         detail])
    right = [float(line.split()[1]) > 0 for line in open(detail, encoding="utf-8")]
    rows = [{"answer": answer, "right": ok, "p1": float(kv["p1"]),
             "in_passages": kv["in_passages"] == "1"}
            for (kv, answer), ok in zip(read_trace(trace), right)]
    return rows, seconds


def study(exact, cheap, others, exact_s, cheap_s):
    """The signals' AUROCs and the p1 cascade's curve for one cheap model."""
    labels = [c["right"] for c in cheap]
    signals = {"p1": auroc([c["p1"] for c in cheap], labels),
               "in_passages": auroc([float(c["in_passages"]) for c in cheap], labels)}
    for name, rows in others.items():
        signals[f"agreement with {name}"] = auroc(
            [float(normalise(c["answer"]) == normalise(o["answer"])) for c, o in zip(cheap, rows)],
            labels)
    n = len(cheap)
    exact_acc = sum(e["right"] for e in exact) / n
    cheap_acc = sum(labels) / n
    curve = []
    for t in sorted(set(CURVE + THRESHOLDS)):
        esc = [c["p1"] < t or t >= 1 for c in cheap]  # threshold 1: every answer
        right = sum(e["right"] if x else c["right"] for c, e, x in zip(cheap, exact, esc))
        share = sum(esc) / n
        curve.append({"threshold": t, "escalated": share, "accuracy": right / n,
                      "interval": wilson(right, n),
                      "plain_selection_accuracy": share * exact_acc + (1 - share) * cheap_acc,
                      "relative_time": (cheap_s + share * exact_s) / exact_s})
    return {"signals": signals, "cheap_accuracy": cheap_acc, "curve": curve,
            "cheap_time_s": cheap_s}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="tuning", help="question split (default: %(default)s)")
    ap.add_argument("--tuning", type=int, default=corpus.CERTIFY_SIZES["tuning"])
    ap.add_argument("--validation", type=int, default=corpus.CERTIFY_SIZES["validation"])
    ap.add_argument("--evaluation", type=int, default=corpus.CERTIFY_SIZES["evaluation"])
    ap.add_argument("--exact", default=EXACT)
    ap.add_argument("--cheap", nargs="+", default=CHEAP)
    ap.add_argument("--passages", type=int, default=2, choices=sorted(PASSAGES))
    ap.add_argument("--first", type=int, default=0,
                    help="only the split's first N questions (default: all)")
    ap.add_argument("--memo", help="LLM memo directory (default: the cache's)")
    ap.add_argument("--results", default=os.path.join(ROOT, "benchmarks", "results", "compound"))
    args = ap.parse_args()
    models_dir, cache, build, bindir = instruct_setup([args.exact] + args.cheap, "checkers")
    data = corpus.folder(cache, args.tuning, args.validation, args.evaluation)
    questions = os.path.join(data, f"questions-{args.split}.tsv")
    memo = args.memo or os.path.join(cache, "llm-memo-premise")
    with tempfile.TemporaryDirectory(prefix="checkers-") as work:
        if args.first:
            questions = first_questions(questions, args.first, work)
        exe = build_rag_bm25(build, work)
        answers, seconds = {}, {}
        for m in [args.exact] + args.cheap:
            start = time.perf_counter()
            answers[m], seconds[m] = answer_all(exe, data, questions, models_dir, m,
                                                args.passages, memo, work, bindir)
            log(f"{m}: accuracy {sum(r['right'] for r in answers[m]) / len(answers[m]):.3f}, "
                f"LLM {seconds[m]:.0f} s ({time.perf_counter() - start:.0f} s now)")
    results = {"split": args.split, "questions": len(answers[args.exact]),
               "passages": args.passages, "exact": args.exact,
               "exact_accuracy": sum(r["right"] for r in answers[args.exact]) / len(
                   answers[args.exact]),
               "exact_time_s": seconds[args.exact], "cheap": {}}
    for c in args.cheap:
        others = {o: answers[o] for o in args.cheap if o != c}
        results["cheap"][c] = study(answers[args.exact], answers[c], others,
                                    seconds[args.exact], seconds[c])
    write(results, args)


def write(r, args):
    os.makedirs(args.results, exist_ok=True)
    stem = os.path.join(args.results, "checkers" + ("" if args.split == "tuning"
                                                    else f"-{args.split}"))
    with open(stem + ".json", "w") as f:
        json.dump(r, f, indent=1)
    lines = [f"# The cascade's checker ({r['questions']} {r['split']} questions, "
             f"{r['passages']} passages)", "",
             f"Exact model {r['exact']}: accuracy {r['exact_accuracy']:.3f}, LLM time "
             f"{r['exact_time_s']:.0f} s. Made by `benchmarks/compound/checkers.py` (see its "
             "docstring for the method).", "",
             "AUROC of each signal for a cheap model's right vs wrong answers (0.5 = chance):", "",
             "| cheap model | accuracy | LLM time vs exact | " + " | ".join(
                 sorted({s for c in r["cheap"].values() for s in c["signals"]})) + " |"]
    names = sorted({s for c in r["cheap"].values() for s in c["signals"]})
    lines.append("|---|---|---|" + "---|" * len(names))
    for m, c in r["cheap"].items():
        cells = [f"{c['signals'][s]:.3f}" if c["signals"].get(s) is not None else "-"
                 for s in names]
        lines.append(f"| {m} | {c['cheap_accuracy']:.3f} | "
                     f"{c['cheap_time_s'] / r['exact_time_s']:.2f} | " + " | ".join(cells) + " |")
    for m, c in r["cheap"].items():
        lines += ["", f"Cascade {m} -> {r['exact']} by first-token probability (p1 < threshold "
                  "escalates); plain selection = the same share of questions sent to the exact "
                  "model at random (expected accuracy):", "",
                  "| threshold | escalated | cascade accuracy [95 %] | plain selection | "
                  "LLM time vs exact |", "|---|---|---|---|---|"]
        for p in c["curve"]:
            if p["threshold"] in THRESHOLDS or abs(p["threshold"] * 10 - round(p["threshold"] * 10)) < 1e-9:
                lines.append(f"| {p['threshold']:.2f} | {p['escalated']:.2f} | "
                             f"{p['accuracy']:.3f} [{p['interval'][0]:.2f}, "
                             f"{p['interval'][1]:.2f}] | {p['plain_selection_accuracy']:.3f} | "
                             f"{p['relative_time']:.2f} |")
    with open(stem + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
