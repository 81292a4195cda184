#!/usr/bin/env python3
"""all-MiniLM-L6-v2 tuned for retrieval: quantization, reduced precision and
layer skipping searched together by the project's tuner (approx_runtime.tune)
with the retrieval QoS.

  tune_minilm.py --data DIR [--passages N] [--questions N] [--batch B]
                 [--seq S] [--max-evals N] [--static-evals N]
                 [--time-budget S] [--backend native|iree] [--out FILE]

The encoder is exported with three variants (func_substitute, chosen by a
decision tree on the batch's longest text in tokens, an i32 parameter, so
that batches of short texts (questions) may take another variant than long
ones (passages)):
  1  the encoder under decode_quantize, a static knob of its own (1 = int8
     matmuls, 3 = int8 weight matmuls only)
  2  the encoder under precision_reduce, a static knob of its own (2 = bf16
     inputs everywhere, 3 = bf16 matmuls only)
  3  the encoder without its last layer
The tuner sets the tree (threshold, variant per branch) and both static
knobs. Each configuration is compiled (our native route by default, or
IREE llvm-cpu after the approx passes) and measured on real texts (a
compound-system data folder: passages and NQ questions): time = embedding
every batch (median of 3 passes); QoS = rank-biased overlap (p = 0.95,
approx-qos rbo-mean) of each question's top-10 passages against the exact
model's. The static search (one variant for every batch) runs first, then
the dynamic one, starting from the static frontier. Writes a markdown report (default
benchmarks/results/ml/minilm-tuning.md).
"""
import argparse
import json
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

# The variants of func_substitute (1-3) and the static knob each carries.
QUANTIZED, NARROW, SKIP = 1, 2, 3
# Their values leave out the roundings benchmarks/ml/minilm.py shows to lose
# more for no time (int8 per tensor) or to break the model (f16); 0 (exact)
# stays, the tuner's baseline.
STATIC = {QUANTIZED: ("decode_quantize", 3, [0, 1, 3]),
          NARROW: ("precision_reduce", 3, [0, 2, 3])}
SCHEMES = {"decode_quantize": {0: "exact", 1: "int8", 3: "int8 weight matmuls"},
           "precision_reduce": {0: "exact", 2: "bf16", 3: "bf16 matmuls"}}


def longest(texts_state):
    return texts_state


def knob_name(variant):
    return f"approx_minilm_{variant}_knob_val"


def variant_label(config, d):
    """What variant `d` of `config` computes."""
    if d in STATIC:
        kind = STATIC[d][0]
        return SCHEMES[kind][config[knob_name(d)]]
    return "skip the last layer" if d == SKIP else "exact"


def describe(config):
    """What `config` computes, per branch of its tree where they differ."""
    first, second = (variant_label(config, config[f"minilm_decision_{j}"])
                     for j in range(2))
    if first == second:
        return first
    return (f"< {config['minilm_threshold_0']} tokens: {first}; longer: {second}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_text_args(ap, passages=64, questions=16)
    ap.add_argument("--max-evals", type=int, default=16,
                    help="evaluations of the dynamic search (default 16)")
    ap.add_argument("--static-evals", type=int, default=36,
                    help="evaluations of the static search (default 36: its "
                         "whole space)")
    ap.add_argument("--backend", choices=("native", "iree"), default="native",
                    help="native: our route (default); iree: IREE llvm-cpu")
    ap.add_argument("--time-budget", type=float, default=0,
                    help="seconds per search, 0 = none (default)")
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "ml",
                                                  "minilm-tuning.md"))
    args = ap.parse_args()
    for name in ("passages", "questions", "batch", "seq", "max_evals", "static_evals"):
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
                           decision_values=[0, QUANTIZED, NARROW, SKIP])
    print("tune_minilm: exporting the encoder and its 3 variants", file=sys.stderr)
    variants = {QUANTIZED: encoder(n_layers), NARROW: encoder(n_layers),
                SKIP: encoder(n_layers - 1)}
    mlir = ar.export_to_mlir(encoder(n_layers), 0, x0, m0, *model.weights(), name="minilm",
                             variants=variants)
    mlir = ar.inject_annotations(mlir, "minilm", {"decision_tree": knob})
    for v, (kind, value, values) in STATIC.items():
        mlir = ar.inject_annotations(mlir, f"approx_minilm_{v}", {
            "static_transform": ar.StaticTransform(transform_type=kind, knob_val=value,
                                                   decision_values=values)})
    manager = ar.MLIRConfigManager()
    weights = model.weights()

    def build(config):
        annotated = manager.apply_config(mlir, config)
        if args.backend == "iree":
            import iree.runtime as rt
            module = ar.load_module(ar.compile_to_iree(annotated))
            f = module.minilm
            w = [rt.asdevicearray(module.device, a) for a in weights]  # uploaded once
            return lambda s, x, m: np.asarray(f(s, x, m, *w))
        from approx_ml import compile_module
        with tempfile.TemporaryDirectory() as tmp:  # loaded: the file may go
            f = compile_module(annotated, library=os.path.join(tmp, "minilm.so")).minilm
        return lambda s, x, m: np.asarray(f(np.int32(s), x, m, *weights))

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
                                    max_evals=(args.static_evals if mode == "static"
                                               else args.max_evals),
                                    start_from=[f["config"] for f in
                                                results.get("static", {}).get(
                                                    "frontier", [])],
                                    mode=mode)
            results[mode]["wall"] = time.perf_counter() - t0

    def pick_at(result, loss):
        """The level's pick as the tuning run computed it (summary.json)."""
        return json.loads(result["outputs"]["summary.json"])["picks"][f"{loss * 100:g}"]

    base = results["static"]["baseline_time"]
    route = ("our native route (OpenMP threads, every core)" if args.backend == "native"
             else "IREE (llvm-cpu, 2 cores)")
    lines = [
        "# all-MiniLM-L6-v2 tuned for retrieval (quantization, precision, layer skipping)",
        "",
        f"`benchmarks/ml/tune_minilm.py --data DIR --passages {args.passages} --questions "
        f"{args.questions} --batch {args.batch} --seq {args.seq} --static-evals "
        f"{args.static_evals} --max-evals {args.max_evals} --backend {args.backend}`: "
        f"{len(texts)} real texts (compound-corpus passages, NQ questions) in {len(bs)} "
        f"batches of {args.batch} × {args.seq} tokens. Knobs: func_substitute of the "
        "encoder, chosen by a decision tree on the batch's longest text (tokens), among "
        "the exact encoder, the encoder under decode_quantize (a static knob: int8, "
        "int8 weight matmuls), under precision_reduce (a static knob: "
        "bf16, bf16 matmuls) and the encoder without its last layer. Each configuration "
        f"compiled through {route} and measured: time = median of 3 passes over all "
        "batches; QoS = RBO (p = 0.95) of every question's top-10 passages against the "
        "exact model's. Searched by approx_runtime.tune (the C++ search): static (one "
        "variant for every batch), then dynamic, starting from the static frontier "
        "(`start_from`).",
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
            b = pick_at(results[mode], loss)
            t = b["tuning"]  # its speedup: against the exact run of the same search
            cells.append(f"{t['speedup']:.2f}× at loss {1 - t['qos']:.2%} "
                         f"({describe(b['config'])})")
        lines.append(f"| ≤ {loss:.0%} | {cells[0]} | {cells[1]} |")
    lines += ["", "| search | space | evaluations | wall time |", "|---|---|---|---|"]
    for mode in ("static", "dynamic"):
        r = results[mode]
        lines.append(f"| {mode} | {r['space_size']:.0f} | {r['evaluations']} | "
                     f"{r['wall']:.0f} s |")
    lines += ["", "Frontier (time ms, QoS):", ""]
    for mode in ("static", "dynamic"):
        pts = ", ".join(f"{f['time']:.0f} ms / {f['accuracy']:.4f} ({describe(f['config'])})"
                        for f in results[mode]["frontier"])
        lines.append(f"- {mode}: {pts}")
    lines.append("")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    write_atomically(args.out, "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
