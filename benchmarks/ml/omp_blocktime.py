#!/usr/bin/env python3
"""Native modules' OpenMP threads and a same-process XLA call (issue 41).

A native build (approx_runtime, backend="native") of a digits-sized MLP
(64-512-512-10, batch 2048; its large loops run on OpenMP threads) and the
same function under jax.jit, called alternately in one process: each XLA
call right after a native one. libomp's worker threads spin for
KMP_BLOCKTIME after a parallel loop (200 ms by default), taking the cores
the XLA call wants; at 0 they sleep after every loop, and each of a call's
loops wakes them again. approx_ml.native sets 1 ms unless the user set it.
Runs the measurement in a fresh process per setting (unset: ours, 0, and
libomp's 200) and prints medians of the native call, of the XLA call right
after it, and of XLA alone. --zoo NAME:BATCH measures a model of
benchmarks/ml/zoo/models.py instead (the GRU has 128 loops per call).

Usage: omp_blocktime.py [--calls 101] [--zoo gru:64]"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def measure(calls, zoo):
    import jax
    import jax.numpy as jnp
    import numpy as np
    import approx_runtime as ar

    if zoo:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "zoo"))
        from models import ZOO
        name, batch = zoo.split(":")
        fn, args = ZOO[name].make(int(batch))
    else:
        rng = np.random.default_rng(0)
        w1, w2, w3 = (rng.standard_normal(s).astype(np.float32) * 0.05
                      for s in ((64, 512), (512, 512), (512, 10)))

        def fn(x):
            h = jnp.maximum(x @ w1, 0)
            h = jnp.maximum(h @ w2, 0)
            return h @ w3
        name, args = "mlp", (rng.standard_normal((2048, 64)).astype(np.float32),)
    module = ar.load_module(ar.compile_to_iree(ar.export_to_mlir(fn, *args, name=name),
                                               backend="native"), backend="native")
    native = getattr(module, name)
    xla = jax.jit(fn)
    for got, want in zip(jax.tree_util.tree_leaves(native(*args)),
                         jax.tree_util.tree_leaves(xla(*args))):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-3, atol=1e-3)

    def timed(f):
        t0 = time.perf_counter()
        jax.block_until_ready(f(*args))
        return time.perf_counter() - t0

    for _ in range(5):
        timed(native), timed(xla)
    alone = [timed(xla) for _ in range(calls)]
    own, after = [], []
    for _ in range(calls):
        own.append(timed(native))
        after.append(timed(xla))
    return {"native_ms": 1e3 * statistics.median(own),
            "xla_alone_ms": 1e3 * statistics.median(alone),
            "xla_after_native_ms": 1e3 * statistics.median(after),
            "blocktime": os.environ.get("KMP_BLOCKTIME")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=101)
    ap.add_argument("--zoo", default="", metavar="NAME:BATCH",
                    help="a zoo model instead of the MLP (e.g. gru:64)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(measure(a.calls, a.zoo)))
        return
    results = {}
    for name, value in (("ours (KMP_BLOCKTIME unset: 1 ms)", None),
                        ("KMP_BLOCKTIME=0", "0"),
                        ("libomp's default (KMP_BLOCKTIME=200)", "200")):
        env = dict(os.environ)
        env.pop("KMP_BLOCKTIME", None)
        if value is not None:
            env["KMP_BLOCKTIME"] = value
        out = subprocess.run([sys.executable, __file__, "--child", "--calls", str(a.calls),
                              "--zoo", a.zoo],
                             env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        results[name] = json.loads(out.strip().splitlines()[-1])
    what = a.zoo or "MLP 64-512-512-10, batch 2048"
    print(f"{what}: medians of {a.calls} calls (ms)")
    print(f"  {'setting':<40} {'native':>8} {'XLA after it':>13} {'XLA alone':>10}")
    for name, r in results.items():
        print(f"  {name:<40} {r['native_ms']:8.2f} {r['xla_after_native_ms']:13.2f} "
              f"{r['xla_alone_ms']:10.2f}")


if __name__ == "__main__":
    main()
