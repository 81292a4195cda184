"""The seed README's example, end to end: a JAX kernel with a loop_perforate
decision tree on its state n, exported, annotated, compiled to native code
through the approx pipeline and run. The state picks the branch at run
time: n < 100 sums data[:100] exactly, n >= 100 sums every second element
and rescales."""
import jax
import jax.numpy as jnp
import numpy as np

import approx_ml as am


def get_state(n):
    return n


def my_kernel(n, data):
    return jnp.sum(data[:n])


config = {"decision_tree": dict(state_function=get_state, state_indices=[0],
                                thresholds=[100], decisions=[0, 2],
                                transform_type="loop_perforate")}
mlir = am.export_to_mlir(my_kernel, 100, jnp.zeros(1000))
mlir = am.inject_annotations(mlir, "my_kernel", config)
module = am.compile_module(mlir)

data = np.random.default_rng(1).random(1000, dtype=np.float32)
exact = float(jax.jit(my_kernel, static_argnums=0)(100, data))
sampled = float(np.sum(data[:100][::2], dtype=np.float32)) * 2.0
for n in (10, 99, 100, 500):
    got = float(module.my_kernel(n, data))
    want = exact if n < 100 else sampled
    ok = abs(got - want) <= 1e-4 * abs(want)
    print(f"{'ok' if ok else 'FAIL'} n={n} result={got:.5f} expected={want:.5f} "
          f"(exact {exact:.5f}, loss {abs(got - exact) / exact:.4f})")
