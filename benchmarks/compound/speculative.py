#!/usr/bin/env python3
"""Greedy speculative decoding on this machine (issue 38, part 2): the 0.5B
Qwen2.5-Coder model drafting for the 1.5B one inside LLM + RAG (bm25), on
real NQ-open questions, uncached.

rag_bm25's runtime-table build answers the same questions (--passages K
passages of 120 words, answers of at most 24 tokens) with the exact model
alone and with --draft, in alternating rounds (plain, draft, plain, draft,
...) so that the machine's drift falls on both; no memo (every call is
computed). Reported: whether the answers are identical (greedy speculative
decoding must give plain decoding's text), the generation time of the whole
question set per round (median and the ratio of medians), the tokens drafted
and accepted, and `approx-llm bench` with and without the draft (prompt and
generation tokens/s, a 512-token prompt, 64 generated tokens). Writes
benchmarks/results/compound/speculative.{md,json}.

usage: speculative.py [--split tuning] [--questions N] [--rounds 3] [--passages 2]
                      [--model FILE] [--draft FILE] [--draft-tokens 4]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import corpus  # noqa: E402
from corpus import first_questions  # noqa: E402
from premise import (PASSAGES, build_rag_bm25, instruct_setup,  # noqa: E402
                     passages_config, run)

MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
DRAFT = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"


def log(msg):
    print(f"[speculative] {time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="tuning")
    ap.add_argument("--questions", type=int, default=40, help="first N questions of the split")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--passages", type=int, default=2, choices=sorted(PASSAGES))
    ap.add_argument("--model", default=MODEL)
    ap.add_argument("--draft", default=DRAFT)
    ap.add_argument("--results", default=os.path.join(ROOT, "benchmarks", "results", "compound"))
    args = ap.parse_args()
    models_dir, cache, build, bindir = instruct_setup([args.model, args.draft], "speculative")
    data = corpus.folder(cache, **corpus.CERTIFY_SIZES)
    env = {k: v for k, v in os.environ.items() if k != "APPROX_LLM_CACHE"}
    with tempfile.TemporaryDirectory(prefix="speculative-") as work:
        questions = first_questions(os.path.join(data, f"questions-{args.split}.tsv"),
                                    args.questions, work)
        nq = sum(1 for _ in open(questions, encoding="utf-8"))
        exe = build_rag_bm25(build, work)
        env["APPROX_CONFIG"] = passages_config(work, args.passages)
        times = {"plain": [], "draft": []}
        answers, drafted = {}, None
        for r in range(args.rounds):
            for mode in ("plain", "draft"):
                out = os.path.join(work, f"{mode}.txt")
                cmd = [exe, "--passages", os.path.join(data, "passages.tsv"), "--questions",
                       questions, "--models", models_dir, "--output", out, "--qa-model",
                       args.model] + (["--draft", args.draft] if mode == "draft" else [])
                err = run(cmd, env=env).stderr
                t = float(err.split("generation ")[1].split()[0])
                times[mode].append(t)
                text = open(out, encoding="utf-8").read()
                if answers.setdefault(mode, text) != text:
                    sys.exit(f"speculative: error: {mode} answers differ between rounds")
                if mode == "draft":
                    tail = err.split("tokens drafted")[0].split()[-1], \
                        err.split("tokens drafted, ")[1].split()[0]
                    drafted = [int(tail[0]), int(tail[1])]
                log(f"round {r + 1}: {mode} {t:.1f} s")
        bench = {}
        for mode in ("plain", "draft"):
            out = run([os.path.join(bindir, "approx-llm"), "bench",
                       os.path.join(models_dir, args.model), "--prompt-tokens", "512",
                       "--gen-tokens", "64", "--repetitions", "3"]
                      + (["--draft", os.path.join(models_dir, args.draft)]
                         if mode == "draft" else []), env=env).stdout
            bench[mode] = {k: float(v) for k, v in
                           (w.split("=", 1) for w in out.split() if "=" in w and
                            not w.startswith("model="))}
            log(f"bench {mode}: {out.strip()}")
    summary = {"model": args.model, "draft": args.draft, "split": args.split,
               "questions": nq, "passages": args.passages, "rounds": args.rounds,
               "identical_answers": answers["plain"] == answers["draft"],
               "generation_s": times,
               "ratio_of_medians": statistics.median(times["draft"]) /
               statistics.median(times["plain"]),
               "drafted_tokens": drafted[0], "accepted_tokens": drafted[1], "bench": bench,
               "machine": run(["nproc"]).stdout.strip() + " cores"}
    write(summary, args)


def write(s, args):
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "speculative.json"), "w") as f:
        json.dump(s, f, indent=1)
    med = {m: statistics.median(t) for m, t in s["generation_s"].items()}
    acc = s["accepted_tokens"] / s["drafted_tokens"] if s["drafted_tokens"] else 0
    b = s["bench"]
    lines = [f"# Greedy speculative decoding: {s['draft']} drafting for {s['model']}", "",
             f"LLM + RAG (bm25), {s['questions']} {s['split']} questions, {s['passages']} "
             f"passages, answers of at most 24 tokens, uncached, {s['rounds']} alternating "
             f"rounds on {s['machine']}. Made by `benchmarks/compound/speculative.py`.", "",
             "| | plain | with the draft | ratio |", "|---|---|---|---|",
             f"| generation time of the question set, median (s) | {med['plain']:.1f} | "
             f"{med['draft']:.1f} | {s['ratio_of_medians']:.2f}x |",
             f"| rounds (s) | {', '.join(f'{t:.1f}' for t in s['generation_s']['plain'])} | "
             f"{', '.join(f'{t:.1f}' for t in s['generation_s']['draft'])} | |",
             f"| answers identical | | {'yes' if s['identical_answers'] else 'NO'} | |",
             f"| tokens drafted / accepted | | {s['drafted_tokens']} / {s['accepted_tokens']} "
             f"({acc:.0%}) | |",
             f"| `approx-llm bench` prompt tok/s (512 tokens) | {b['plain']['prompt_tps']:.1f} | "
             f"{b['draft']['prompt_tps']:.1f} | "
             f"{b['draft']['prompt_tps'] / b['plain']['prompt_tps']:.2f}x |",
             f"| `approx-llm bench` generation tok/s (64 tokens) | "
             f"{b['plain']['generate_tps']:.1f} | {b['draft']['generate_tps']:.1f} | "
             f"{b['draft']['generate_tps'] / b['plain']['generate_tps']:.2f}x |"]
    with open(os.path.join(args.results, "speculative.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
