#!/usr/bin/env python3
"""Native modules' OpenMP threads and a same-process XLA call (issue 41).

A native build (approx_runtime, backend="native") of a digits-sized MLP
(64-512-512-10, batch 2048; its large loops run on OpenMP threads) and the
same function under jax.jit, called alternately in one process: each XLA
call right after a native one. libomp's worker threads spin for
KMP_BLOCKTIME after a parallel loop (200 ms by default), taking the cores
the XLA call wants; approx_ml.native sets 0 unless the user set it. Runs
the measurement in two fresh processes, KMP_BLOCKTIME unset (our default)
and KMP_BLOCKTIME=200 (libomp's), and prints the XLA call's median time in
each, with the ratio; also XLA alone (no native call before it).

Usage: omp_blocktime.py [--calls 101]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def measure(calls):
    import jax
    import jax.numpy as jnp
    import numpy as np
    import approx_runtime as ar

    rng = np.random.default_rng(0)
    w1, w2, w3 = (rng.standard_normal(s).astype(np.float32) * 0.05
                  for s in ((64, 512), (512, 512), (512, 10)))

    def mlp(x):
        h = jnp.maximum(x @ w1, 0)
        h = jnp.maximum(h @ w2, 0)
        return h @ w3

    x = rng.standard_normal((2048, 64)).astype(np.float32)
    native = ar.load_module(ar.compile_to_iree(ar.export_to_mlir(mlp, x, name="mlp"),
                                               backend="native"), backend="native")
    xla = jax.jit(mlp)
    np.testing.assert_allclose(np.asarray(native.mlp(x)), np.asarray(xla(x)), rtol=1e-3,
                               atol=1e-3)

    def timed(f):
        t0 = time.perf_counter()
        jax.block_until_ready(f(x))
        return time.perf_counter() - t0

    for _ in range(5):
        native.mlp(x), timed(xla)
    alone = [timed(xla) for _ in range(calls)]
    after = []
    for _ in range(calls):
        native.mlp(x)
        after.append(timed(xla))
    return {"xla_alone_ms": 1e3 * statistics.median(alone),
            "xla_after_native_ms": 1e3 * statistics.median(after),
            "blocktime": os.environ.get("KMP_BLOCKTIME")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=101)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(measure(a.calls)))
        return
    results = {}
    for name, value in (("ours (KMP_BLOCKTIME unset: 0)", None),
                        ("libomp's default (KMP_BLOCKTIME=200)", "200")):
        env = dict(os.environ)
        env.pop("KMP_BLOCKTIME", None)
        if value is not None:
            env["KMP_BLOCKTIME"] = value
        out = subprocess.run([sys.executable, __file__, "--child", "--calls", str(a.calls)],
                             env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        results[name] = json.loads(out.strip().splitlines()[-1])
    print(f"XLA call (MLP 64-512-512-10, batch 2048), medians of {a.calls}:")
    for name, r in results.items():
        print(f"  {name:<40} after a native call {r['xla_after_native_ms']:.2f} ms, "
              f"alone {r['xla_alone_ms']:.2f} ms")
    ours, theirs = results.values()
    print(f"  ratio (200 / 0) after a native call: "
          f"{theirs['xla_after_native_ms'] / ours['xla_after_native_ms']:.2f}x")


if __name__ == "__main__":
    main()
