"""Function substitution with tuning (the seed README's example):

  1. an exact JAX kernel and two cheaper variants of it;
  2. exported to MLIR with a func_substitute decision tree on the request's
     priority (the state): low-priority requests may take a variant;
  3. tuned: thresholds and decisions searched for the fastest workload whose
     accuracy stays above the bound (every configuration compiled and run);
  4. the exact and the tuned builds compared on the same workload.

    python -m approx_runtime.examples.example_with_tuning
    python -m approx_runtime.examples.example_with_tuning --tuning-time 600 \\
        --accuracy 0.95 --backend llvm-cpu

The kernel is one dense layer with a tanh activation, y = tanh(x @ w), over
inputs whose features fall off in magnitude (as after a PCA): variant 1 uses
the leading half of the features, variant 2 the leading quarter (2x and 4x
fewer multiply-adds). The workload is 40 requests with priorities 0..9;
accuracy is 1 minus the mean relative L2 error against the exact outputs.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import approx_runtime as ar


def priority_state(priority):
    return priority


def dense_tanh(priority, x, w):
    import jax.numpy as jnp
    return jnp.tanh(x @ w)


def dense_half(priority, x, w):
    import jax.numpy as jnp
    k = x.shape[1] // 2
    return jnp.tanh(x[:, :k] @ w[:k, :])


def dense_quarter(priority, x, w):
    import jax.numpy as jnp
    k = x.shape[1] // 4
    return jnp.tanh(x[:, :k] @ w[:k, :])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tuning-time", type=float, default=ar.tuning.default_time_budget(120),
                    help="seconds of tuning (default: TUNING_TIME_BUDGET, else 120)")
    ap.add_argument("--accuracy", type=float, default=ar.tuning.default_accuracy_threshold(),
                    help="accuracy bound in [0, 1] (default: ACCURACY_THRESHOLD, else 0.9)")
    ap.add_argument("--backend", default=None,
                    help="llvm-cpu (IREE) or native (default: APPROX_BACKEND, else llvm-cpu)")
    ap.add_argument("--max-evals", type=int, default=60, help="evaluations at most (default 60)")
    ap.add_argument("--database", default=None, help="results store (default: none)")
    args = ap.parse_args(argv)

    rng = np.random.default_rng(0)
    n = 512
    decay = np.exp(-np.arange(n) / 48.0)  # feature j's scale
    x = (rng.standard_normal((n, n)) * decay).astype(np.float32)
    w = (rng.standard_normal((n, n)) / 4).astype(np.float32)
    priorities = [int(p) for p in rng.integers(0, 10, 40)]

    knob = ar.DecisionTree(state_function=priority_state, state_indices=[0],
                           thresholds=[3, 7], decisions=[2, 1, 0],
                           thresholds_lower=[0, 1], thresholds_upper=[9, 10],
                           decision_values=[0, 1, 2], transform_type="func_substitute")
    print("example: exporting the kernel and its variants", file=sys.stderr)
    mlir = ar.export_to_mlir(dense_tanh, 0, x, w, name="dense",
                             variants={1: dense_half, 2: dense_quarter})
    mlir = ar.inject_annotations(mlir, "dense", {"decision_tree": knob})
    manager = ar.MLIRConfigManager()
    exact_config = manager.exact_config(mlir)

    def build(config):
        vmfb = ar.compile_to_iree(ar.compile(manager.apply_config(mlir, config)),
                                  backend=args.backend)
        return ar.load_module(vmfb, backend=args.backend)

    def run(module):
        start = time.perf_counter()
        outs = [np.asarray(module.dense(p, x, w)) for p in priorities]
        return (time.perf_counter() - start) * 1000, outs

    exact_module = build(exact_config)
    run(exact_module)  # warm up
    _, reference = run(exact_module)

    def accuracy(outs):
        errors = [np.linalg.norm(o - r) / np.linalg.norm(r) for o, r in zip(outs, reference)]
        return max(0.0, 1.0 - float(np.mean(errors)))

    def evaluate(config):
        module = build(config)
        run(module)
        times = []
        for _ in range(3):
            t, outs = run(module)
            times.append(t)
        return float(np.median(times)), accuracy(outs)

    result = ar.tune(mlir, evaluate, accuracy_threshold=args.accuracy,
                     time_budget=args.tuning_time, database=args.database,
                     max_evals=args.max_evals)
    exact_time, _ = evaluate(exact_config)
    tuned_time, tuned_accuracy = evaluate(result["best_config"])
    print(f"best configuration: {result['best_config']}")
    print(f"exact: {exact_time:.1f} ms for {len(priorities)} requests")
    print(f"tuned: {tuned_time:.1f} ms, {exact_time / tuned_time:.2f}x, accuracy "
          f"{tuned_accuracy:.4f} (bound {args.accuracy})")
    print(f"{result['evaluations']} configurations evaluated in {result['seconds']:.0f} s "
          f"({result['stop_reason']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
