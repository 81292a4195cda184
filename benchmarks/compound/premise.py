#!/usr/bin/env python3
"""The paper's premise, measured (issue 38, part 1): for each QA model, the
exact accuracy of LLM + RAG (bm25) with 1, 2 and 4 retrieved passages of 120
words on real NQ-open questions, and the model's speed on this machine.

The premise is that more context and a larger model buy accuracy; the exact
system should be the most accurate model with a context for which more
passages help, and never be dominated by a configuration of its own space
(DESIGN §15). Accuracy comes from the real system (rag_bm25's runtime-table
build: its build_prompt knob picks 2, 1 or 4 passages, --qa-model names
the exact QA model), scored by approx-qos nq-accuracy, with LLM calls
memoised (a greedy answer depends only on the prompt). Speed comes from
`approx-llm bench` (median prompt and generation tokens/s), run on an idle
machine. Writes benchmarks/results/compound/premise.{md,json}.

usage: premise.py [--split tuning] [--questions 60] [--models FILE ...]
                  [--bench-repetitions 3] [--memo DIR]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from compound import env_paths  # noqa: E402  (scripts/paths.sh's folders)
import corpus  # noqa: E402

# The QA models compared: the systems' own (Gemma 3 270M, SmolLM2-135M) and
# the instruct models of ml/models-instruct.txt.
MODELS = ["smollm2-135m-instruct-q4_1.gguf", "gemma-3-270m-q4_k_m.gguf",
          "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
          "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"]
# build_prompt's decision value for each passage count (rag_bm25.c:
# 0 -> 2 passages, the exact system's, 1 -> 1, 2 -> 4).
PASSAGES = {2: 0, 1: 1, 4: 2}


def log(msg):
    print(f"[premise] {time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"premise: error: {' '.join(cmd[:2])} failed (exit {r.returncode}):\n"
                 f"{r.stderr.strip()[-2000:]}")
    return r


def instruct_setup(models, who):
    """The models folder, the cache, the build folder (APPROX_BUILD_DIR or
    build/) and its bin/ for the scripts over the instruct models (premise,
    checkers, speculative); `models` must be in the models folder."""
    models_dir, cache, _ = env_paths()
    build = os.environ.get("APPROX_BUILD_DIR") or os.path.join(ROOT, "build")
    for m in models:
        if not os.path.isfile(os.path.join(models_dir, m)):
            sys.exit(f"{who}: error: {models_dir}/{m} is missing "
                     "(scripts/fetch-instruct-models.sh fetches the instruct models)")
    return models_dir, cache, build, os.path.join(build, "bin")


def build_rag_bm25(build, work):
    """rag_bm25's runtime-table build in `work` (every configuration by
    APPROX_CONFIG); returns its path."""
    exe, lib = os.path.join(work, "rag_bm25"), os.path.join(build, "lib")
    run([os.path.join(build, "bin", "approx-cc"), "-O3", "--approx-runtime-table",
         os.path.join(HERE, "rag_bm25", "rag_bm25.c"), "-I",
         os.path.join(ROOT, "runtime", "llm", "include"), f"-L{lib}", "-lapprox_llm",
         f"-Wl,-rpath,{lib}", "-o", exe])
    return exe


def passages_config(work, k):
    """An APPROX_CONFIG file in `work` that gives rag_bm25 k passages
    (build_prompt's decision on both sides of its threshold); its path."""
    path = os.path.join(work, f"p{k}.json")
    with open(path, "w") as f:
        json.dump({"build_prompt_decision_0": PASSAGES[k],
                   "build_prompt_decision_1": PASSAGES[k]}, f)
    return path


def wilson(k, n, z=1.96):
    """95 % Wilson interval of k successes in n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="tuning", help="question split (default: %(default)s)")
    ap.add_argument("--questions", type=int, default=60,
                    help="tuning questions of the corpus (corpus.py --tuning; default %(default)s)")
    ap.add_argument("--models", nargs="*", default=MODELS)
    ap.add_argument("--bench-repetitions", type=int, default=3)
    ap.add_argument("--no-bench", action="store_true", help="accuracy only")
    ap.add_argument("--memo", help="LLM memo directory (default: the cache's)")
    ap.add_argument("--results", default=os.path.join(ROOT, "benchmarks", "results", "compound"))
    args = ap.parse_args()

    models_dir, cache, build, bindir = instruct_setup(args.models, "premise")
    data = corpus.folder(cache, args.questions)
    questions = os.path.join(data, f"questions-{args.split}.tsv")
    nq = sum(1 for _ in open(questions, encoding="utf-8"))
    memo = args.memo or os.path.join(cache, "llm-memo-premise")
    with tempfile.TemporaryDirectory(prefix="premise-") as work:
        measure(args, models_dir, bindir, build, data, questions, nq, memo, work)


def measure(args, models_dir, bindir, build, data, questions, nq, memo, work):
    """Builds rag_bm25 in `work` and measures every model (see the module doc)."""
    exe = build_rag_bm25(build, work)

    rows = []
    for model in args.models:
        row = {"model": model, "accuracy": {}, "interval": {}, "prompt_tokens": {}}
        for k in sorted(PASSAGES):
            config = passages_config(work, k)
            answers = os.path.join(work, f"{model}-{k}.txt")
            env = dict(os.environ, APPROX_CONFIG=config, APPROX_LLM_CACHE=memo)
            start = time.perf_counter()
            r = run([exe, "--passages", os.path.join(data, "passages.tsv"), "--questions",
                     questions, "--models", models_dir, "--output", answers,
                     "--qa-model", model], env=env)
            tokens = int(r.stderr.split("prompt tokens ")[1].split()[0])
            detail = os.path.join(work, f"{model}-{k}.detail")
            acc = float(run([os.path.join(bindir, "approx-qos"), "nq-accuracy", answers,
                             questions, "--detail", detail]).stdout.split()[0])
            right = round(acc * nq)
            row["accuracy"][k] = acc
            row["interval"][k] = wilson(right, nq)
            row["prompt_tokens"][k] = tokens / nq
            log(f"{model}: {k} passage(s): accuracy {acc:.3f} ({right}/{nq}), "
                f"{tokens / nq:.0f} prompt tokens a question, {time.perf_counter() - start:.0f} s")
        if not args.no_bench:
            out = run([os.path.join(bindir, "approx-llm"), "bench",
                       os.path.join(models_dir, model), "--prompt-tokens", "512",
                       "--gen-tokens", "16", "--repetitions", str(args.bench_repetitions)]).stdout
            fields = dict(w.split("=", 1) for w in out.split() if "=" in w)
            row["prompt_tps"] = float(fields["prompt_tps"])
            row["generate_tps"] = float(fields["generate_tps"])
            log(f"{model}: {row['prompt_tps']:.1f} prompt tokens/s, "
                f"{row['generate_tps']:.1f} generated tokens/s")
        rows.append(row)
        write(rows, args, nq)


def write(rows, args, nq):
    """premise.json and premise.md of the models measured so far (written
    after each model, so an interrupted run keeps what it measured)."""
    # The premise holds for a model when 4 passages beat 1 (more context
    # buys accuracy); the exact system is the most accurate (model, passages)
    # pair, preferring one where the premise holds.
    best = max(((r, k) for r in rows for k in PASSAGES), key=lambda rk: rk[0]["accuracy"][rk[1]])
    premise = [r["model"] for r in rows if r["accuracy"][4] > r["accuracy"][1]]
    summary = {"split": args.split, "questions": nq, "rows": rows,
               "premise_holds_for": premise,
               "most_accurate": {"model": best[0]["model"], "passages": best[1],
                                 "accuracy": best[0]["accuracy"][best[1]]},
               "threads": os.environ.get("APPROX_LLM_THREADS", "all cores"),
               "machine": run(["nproc"]).stdout.strip() + " cores"}
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, "premise.json"), "w") as f:
        json.dump(summary, f, indent=1)
    lines = [f"# The premise: accuracy by model and context (LLM + RAG bm25, {nq} {args.split} "
             "questions)", "",
             "Exact accuracy of rag_bm25 with k retrieved passages of 120 words (95 % Wilson "
             "interval), its prompt tokens a question, and the model's speed (`approx-llm bench`, "
             "512-token prompt, 16 generated tokens, median of "
             f"{args.bench_repetitions}). Made by `benchmarks/compound/premise.py`.", "",
             "| model | 1 passage | 2 passages | 4 passages | 4 passages beat 1 | "
             "prompt tok/s | gen tok/s |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        cells = [f"{r['accuracy'][k]:.3f} [{r['interval'][k][0]:.2f}, {r['interval'][k][1]:.2f}] "
                 f"({r['prompt_tokens'][k]:.0f} tok)" for k in (1, 2, 4)]
        speed = ([f"{r['prompt_tps']:.1f}", f"{r['generate_tps']:.1f}"] if "prompt_tps" in r
                 else ["-", "-"])
        lines.append(f"| {r['model']} | " + " | ".join(cells) +
                     f" | {'yes' if r['model'] in premise else 'no'} | " + " | ".join(speed) + " |")
    lines += ["", f"Most accurate (model, passages): {best[0]['model']} with {best[1]} "
              f"passage(s), {best[0]['accuracy'][best[1]]:.3f}."]
    with open(os.path.join(args.results, "premise.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
