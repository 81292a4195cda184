"""Every op family the StableHLO importer covers, run natively through the
approx pipeline and compared with XLA on the same inputs."""
import sys

import jax
import jax.numpy as jnp
import numpy as np

import approx_ml as am

rng = np.random.default_rng(0)


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def layernorm(x, g, b):
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.mean((x - m) ** 2, axis=-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-12) * g + b


CASES = {
    "matmul": (lambda x, w: x @ w, (randn(5, 7), randn(7, 3))),
    "matmul_t": (lambda x, w: x @ w.T, (randn(4, 6), randn(3, 6))),
    "batched": (lambda q, k: jnp.einsum("bhqd,bhkd->bhqk", q, k),
                (randn(2, 3, 4, 5), randn(2, 3, 6, 5))),
    "dense3d": (lambda x, w, b: x @ w + b, (randn(2, 4, 6), randn(6, 5), randn(5))),
    "softmax": (lambda x: jax.nn.softmax(x, axis=-1), (randn(3, 9),)),
    "gelu": (lambda x: jax.nn.gelu(x, approximate=False), (randn(4, 8),)),
    "gelu_tanh": (lambda x: jax.nn.gelu(x, approximate=True), (randn(4, 8),)),
    "layernorm": (layernorm, (randn(3, 16), randn(16), randn(16))),
    "reductions": (lambda x: (jnp.sum(x), jnp.max(x, axis=0), jnp.min(x, axis=1),
                              jnp.prod(x[:2, :3])), (randn(4, 5),)),
    "elementwise": (lambda x, y: (jnp.exp(x) - jnp.log(jnp.abs(y) + 1) * jnp.tanh(x),
                                  jnp.sqrt(jnp.abs(x)) / (1 + jnp.abs(y)),
                                  jnp.maximum(x, y), jnp.minimum(x, -y),
                                  jax.nn.sigmoid(x), jnp.clip(x, -0.5, 0.5),
                                  jnp.where(x > y, x, y), jnp.floor(x * 3)),
                    (randn(3, 4), randn(3, 4))),
    "convert": (lambda x, i: ((x > 0).astype(jnp.float32) + i.astype(jnp.float32),
                              (x * 10).astype(jnp.int32)),
                (randn(6), np.arange(6, dtype=np.int32))),
    "shapes": (lambda x: (x.reshape(6, 4).T, jnp.concatenate([x[:, :1], x[:, 2:]], 1),
                          x[::2, 1::2], jnp.arange(12.0).reshape(3, 4) + x[0, 0],
                          jnp.broadcast_to(x[:, :1, :], (2, 3, 4))),
               (randn(2, 3, 4),)),
    "gather": (lambda table, ids: jnp.take(table, ids, axis=0).sum(axis=1),
               (randn(10, 4), np.array([[1, 9], [0, 3], [7, 7]], np.int32))),
    "mean_pool": (lambda h, m: (h * m[..., None]).sum(1) / m.sum(1, keepdims=True),
                  (randn(2, 5, 3), np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]],
                                            np.float32))),
    # Skinny and odd matmuls (peeled register blocks): 20 x 52 (all six
    # pieces), a 10-column head, a batched GEMV.
    "skinny": (lambda x, w, h, v, q, k: (x @ w, h @ v, jnp.einsum("bqd,bkd->bqk", q, k)),
               (randn(20, 9), randn(9, 52), randn(24, 33), randn(33, 10), randn(3, 1, 17),
                randn(3, 16, 17))),
    # Convolutions (im2col + matmul): layouts, strides, dilation, padding,
    # 1-D, and skinny/odd channel counts.
    "conv_nhwc": (lambda x, k: jax.lax.conv_general_dilated(
        x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        (randn(2, 7, 9, 3), randn(3, 3, 3, 5))),
    "conv_nchw_strided": (lambda x, k: jax.lax.conv_general_dilated(
        x, k, (2, 1), "VALID", rhs_dilation=(1, 2), dimension_numbers=("NCHW", "OIHW", "NCHW")),
        (randn(2, 3, 9, 8), randn(4, 3, 3, 2))),
    "conv_1d_skinny": (lambda x, k: jax.lax.conv_general_dilated(
        x, k, (1,), [(2, 1)], dimension_numbers=("NWC", "WIO", "NWC")),
        (randn(3, 10, 1), randn(5, 1, 1))),
    # Pooling (reduce_window): max with SAME padding (-inf), average.
    "max_pool": (lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 3, 3, 1),
                                                 (1, 2, 2, 1), "SAME"), (randn(2, 7, 6, 3),)),
    "avg_pool": (lambda x: jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1),
                                                 (1, 2, 2, 1), "VALID") / 4,
                 (randn(2, 6, 8, 5),)),
    # argmax/argmin: reduces of values and their indices; ties go to the
    # first index, as XLA's.
    "argmax": (lambda x, i: (jnp.argmax(x, axis=-1), jnp.argmin(x, axis=0),
                             jnp.argmax(i, axis=1)),
               (randn(5, 7), np.array([[1, 3, 3, 0], [2, 2, 2, 2]], np.int32))),
}

worst = 0.0
for name, (fn, args) in CASES.items():
    fn.__name__ = name
    mlir = am.export_to_mlir(fn, *args, name=name)
    module = am.compile_module(mlir)
    got = module[name](*args)
    want = jax.jit(fn)(*args)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    err = 0.0
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape,
                                                           g.dtype, w.dtype)
        err = max(err, float(np.max(np.abs(g.astype(np.float64) - w) /
                                    (1 + np.abs(w)))) if g.size else 0.0)
    worst = max(worst, err)
    status = "ok" if err <= 1e-5 else "FAIL"
    print(f"{status} {name} max relative error {err:.2e}")
print(f"worst {worst:.2e}")
sys.exit(0 if worst <= 1e-5 else 1)
