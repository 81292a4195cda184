#!/usr/bin/env python3
"""all-MiniLM-L6-v2 tuned for retrieval: a layer-skipping knob searched by
the project's tuner (approx_runtime.tune) with the retrieval QoS.

  tune_minilm.py --data DIR [--passages N] [--questions N] [--batch B]
                 [--seq S] [--max-evals N] [--time-budget S] [--out FILE]

The encoder is exported with three variants that skip its last 1, 2 or 3
layers (func_substitute: approx_minilm_1..3) and a decision tree on the
batch's longest text in tokens (the state, an i32 parameter): batches of
short texts (questions) may take a different variant than long ones
(passages). Each configuration is compiled through IREE (llvm-cpu, after the
approx passes) and measured on real texts (a compound-system data folder:
passages and NQ questions): time = embedding every batch (median of 3
passes); QoS = rank-biased overlap (p = 0.95, approx-qos rbo-mean) of each
question's top-10 passages against the exact model's. The static space (one
variant for everything) is enumerated, then the dynamic one is searched.
Writes a markdown report (default benchmarks/results/ml/minilm-tuning.md).
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import approx_runtime as ar  # noqa: E402
from approx_runtime._files import write_atomically  # noqa: E402
from approx_ml.minilm import MiniLM  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minilm import add_text_args, batches, rankings, read_texts, rbo_mean  # noqa: E402


def longest(texts_state):
    return texts_state


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_text_args(ap, passages=64, questions=16)
    ap.add_argument("--max-evals", type=int, default=16,
                    help="evaluations of the dynamic search (default 16)")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="seconds per search, 0 = none (default)")
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "ml",
                                                  "minilm-tuning.md"))
    args = ap.parse_args()
    for name in ("passages", "questions", "batch", "seq", "max_evals"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be >= 1")

    model = MiniLM.load(args.model)
    passages, questions = read_texts(args.data, args.passages, args.questions)
    texts = passages + questions
    bs = batches(model, texts, args.batch, args.seq)
    counts = [min(args.batch, len(texts) - i) for i in range(0, len(texts), args.batch)]
    states = [int(m.sum(1).max()) for _, m in bs]  # longest text per batch
    n_layers = model.cfg["num_hidden_layers"]

    def encoder(layers):
        fn = model.encoder(layers=layers)

        def minilm(n_tokens, x, m, *w):
            return fn(x, m, *w)
        return minilm

    x0, m0 = bs[0]
    knob = ar.DecisionTree(state_function=longest, state_indices=[0], thresholds=[64],
                           decisions=[0, 0], transform_type="func_substitute",
                           thresholds_lower=[1], thresholds_upper=[args.seq],
                           decision_values=[0, 1, 2, 3])
    print("tune_minilm: exporting the encoder and its 3 layer-skipping variants",
          file=sys.stderr)
    mlir = ar.export_to_mlir(encoder(n_layers), 0, x0, m0, *model.weights(), name="minilm",
                             variants={k: encoder(n_layers - k) for k in (1, 2, 3)})
    mlir = ar.inject_annotations(mlir, "minilm", {"decision_tree": knob})
    manager = ar.MLIRConfigManager()
    weights = model.weights()

    def build(config):
        import iree.runtime as rt
        module = ar.load_module(ar.compile_to_iree(manager.apply_config(mlir, config)))
        f = module.minilm
        w = [rt.asdevicearray(module.device, a) for a in weights]  # uploaded once
        return lambda s, x, m: np.asarray(f(s, x, m, *w))

    def embed(f):
        out = [f(s, x, m) for s, (x, m) in zip(states, bs)]
        return np.concatenate([o[:c] for o, c in zip(out, counts)])

    exact_config = manager.exact_config(mlir)
    exact = build(exact_config)
    exact_emb = embed(exact)
    exact_rank = rankings(exact_emb[len(passages):], exact_emb[:len(passages)])

    def evaluate(config):
        f = build(config)
        emb = embed(f)
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            embed(f)
            times.append(time.perf_counter() - t0)
        rank = rankings(emb[len(passages):], emb[:len(passages)])
        return float(np.median(times)) * 1000, rbo_mean(exact_rank, rank)

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("static", "dynamic"):
            t0 = time.perf_counter()
            results[mode] = ar.tune(mlir, evaluate, accuracy_threshold=0.0,
                                    time_budget=args.time_budget,
                                    database=os.path.join(tmp, "tune.db"),
                                    max_evals=4 if mode == "static" else args.max_evals,
                                    mode=mode)
            results[mode]["wall"] = time.perf_counter() - t0

    def best_at(result, loss):
        ok = [f for f in result["frontier"] if f["accuracy"] >= 1 - loss]
        if not ok:
            return None
        return min(ok, key=lambda f: f["time"])

    base = results["static"]["baseline_time"]
    lines = [
        "# all-MiniLM-L6-v2 tuned for retrieval (layer skipping)",
        "",
        f"`benchmarks/ml/tune_minilm.py --data DIR --passages {args.passages} --questions "
        f"{args.questions} --batch {args.batch} --seq {args.seq} --max-evals "
        f"{args.max_evals}`: {len(texts)} real texts (compound-corpus passages, NQ "
        f"questions) in {len(bs)} batches of {args.batch} × {args.seq} tokens. Knob: "
        "func_substitute of the whole encoder by variants that skip its last 1/2/3 "
        "layers, chosen by a decision tree on the batch's longest text (tokens). Each "
        "configuration compiled through IREE (llvm-cpu, 2 cores) and measured: time = "
        "median of 3 passes over all batches; QoS = RBO (p = 0.95) of every question's "
        "top-10 passages against the exact model's. Searched by approx_runtime.tune "
        "(the C++ search): the static space enumerated, then the dynamic space "
        f"({args.max_evals} evaluations).",
        "",
        f"Exact: {base:.0f} ms per pass (static search; each search's speedups are "
        "against its own exact measurement).",
        "",
        "| QoS loss bound | static: speedup (config) | dynamic: speedup (config) |",
        "|---|---|---|",
    ]
    for loss in (0.01, 0.03, 0.06, 0.09):
        cells = []
        for mode in ("static", "dynamic"):
            b = best_at(results[mode], loss)
            if b is None:
                cells.append("—")
                continue
            c = b["config"]
            d = [c[f"minilm_decision_{j}"] for j in range(2)]
            what = (f"skip {d[0]} layers" if mode == "static" else
                    f"< {c['minilm_threshold_0']} tokens: skip {d[0]}; longer: skip {d[1]}")
            own = results[mode]["baseline_time"]  # measured in the same search
            cells.append(f"{own / b['time']:.2f}× at loss {1 - b['accuracy']:.2%} ({what})")
        lines.append(f"| ≤ {loss:.0%} | {cells[0]} | {cells[1]} |")
    lines += ["", "| search | space | evaluations | wall time |", "|---|---|---|---|"]
    for mode in ("static", "dynamic"):
        r = results[mode]
        lines.append(f"| {mode} | {r['space_size']:.0f} | {r['evaluations']} | "
                     f"{r['wall']:.0f} s |")
    lines += ["", "Frontier (time ms, QoS):", ""]
    for mode in ("static", "dynamic"):
        pts = ", ".join(f"{f['time']:.0f} ms / {f['accuracy']:.4f}"
                        for f in results[mode]["frontier"])
        lines.append(f"- {mode}: {pts}")
    lines.append("")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    write_atomically(args.out, "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
