#!/usr/bin/env python3
"""Which of all-MiniLM-L6-v2's matmuls cost retrieval quality under int8.

  int8_groups.py --data DIR [--passages N] [--questions N] [--batch B] [--seq S]
                 [--spread]

The encoder of approx_ml.minilm, run by XLA, with decode_quantize 1's
arithmetic simulated in float (activations per row and weights per output
channel rounded to int8 levels, scale = absmax / 127) on one group of linear
layers at a time: every linear layer; Q/K/V; attention output; FFN in; FFN
out; the first and the last three layers. Prints each group's retrieval QoS:
the RBO (p = 0.95) of every question's top-10 passages against the exact
model's, as benchmarks/ml/minilm.py measures it (the same texts and batches).
Then every linear layer under other roundings: int8 weights with f32
activations, int8 with scales per group of 32/64/128 along the reduction
dimension, bf16 inputs, int8 after SmoothQuant's scale migration (alpha 0.5
and 0.8, the batch's own maxima), asymmetric activations (a zero point per
row), LLM.int8()'s decomposition (the 4 or 16 input channels of largest
magnitude in the batch kept in f32, with or without int8 weights); and int8
on the passages' embeddings only or the questions' only. --spread takes the
passages evenly over the corpus and the questions from all its question files
(tuning, validation, evaluation) instead of the first ones, for a larger,
less clustered check.
"""
import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from approx_ml.minilm import MiniLM  # noqa: E402
from minilm import add_text_args, batches, rankings, rbo_mean, read_texts  # noqa: E402


def qz(x, axis):
    import jax.numpy as jnp
    s = jnp.maximum(jnp.max(jnp.abs(x), axis=axis, keepdims=True), 1e-30) / 127.0
    return jnp.clip(jnp.round(x / s), -127, 127) * s


def qz_groups(x, axis, g):
    """qz with one scale per group of `g` along `axis` (the reduction
    dimension: the last of activations, the first of weights)."""
    shape = x.shape
    if axis == 0:
        return qz(x.reshape((shape[0] // g, g) + shape[1:]), 1).reshape(shape)
    return qz(x.reshape(shape[:-1] + (shape[-1] // g, g)), -1).reshape(shape)


def bf16(x):
    import jax.numpy as jnp
    return x.astype(jnp.bfloat16).astype(jnp.float32)


def qz_asym(x):
    """x rounded to 256 levels per row between its minimum and maximum (a
    zero point per row)."""
    import jax.numpy as jnp
    lo = jnp.min(x, axis=-1, keepdims=True)
    s = jnp.maximum(jnp.max(x, axis=-1, keepdims=True) - lo, 1e-30) / 255.0
    z = jnp.round(-lo / s)
    return (jnp.clip(jnp.round(x / s) + z, 0, 255) - z) * s


def outliers(x, w, k, weights):
    """LLM.int8()'s decomposition: the `k` input channels of largest
    magnitude in the batch stay f32 (their rows of w too); the rest of x is
    int8 per row, times w rounded by `weights`."""
    import jax.numpy as jnp
    ax = jnp.max(jnp.abs(x), axis=tuple(range(x.ndim - 1)))
    keep = jnp.zeros(x.shape[-1]).at[jnp.argsort(-ax)[:k]].set(1.0)
    return qz(x * (1 - keep), -1) @ weights(w) + (x * keep) @ w


def smooth(x, w, alpha):
    """SmoothQuant's scale migration before int8 (per row / per output
    channel): input channel j of x divided by s_j = max|x_j|^a /
    max|w_j|^(1-a), row j of w multiplied by it (the product unchanged).
    The maxima are the batch's own (dynamic): an upper bound on what
    scales calibrated offline would keep."""
    import jax.numpy as jnp
    ax = jnp.max(jnp.abs(x), axis=tuple(range(x.ndim - 1)))
    aw = jnp.max(jnp.abs(w), axis=1)
    s = jnp.maximum(ax, 1e-5) ** alpha / jnp.maximum(aw, 1e-5) ** (1 - alpha)
    return qz(x / s, -1) @ qz(w * s[:, None], 0)


# Roundings of every linear layer: (label, linear(x, w)).
SCHEMES = [
    ("int8 weights per channel, f32 activations", lambda x, w: x @ qz(w, 0)),
    *[(f"int8 per group of {g} along K", lambda x, w, g=g: qz_groups(x, -1, g) @ qz_groups(w, 0, g))
      for g in (128, 64, 32)],
    ("bf16 inputs", lambda x, w: bf16(x) @ bf16(w)),
    *[(f"int8 after SmoothQuant scale migration, alpha {a}", lambda x, w, a=a: smooth(x, w, a))
      for a in (0.5, 0.8)],
    ("int8, activations with a zero point per row", lambda x, w: qz_asym(x) @ qz(w, 0)),
    *[(f"int8, the {k} largest input channels in f32 (LLM.int8())",
       lambda x, w, k=k: outliers(x, w, k, lambda v: qz(v, 0))) for k in (4, 16)],
    ("int8 activations, the 16 largest input channels in f32, f32 weights",
     lambda x, w: outliers(x, w, 16, lambda v: v)),
]


def encoder(model, quantized, rounded=lambda x, w: qz(x, -1) @ qz(w, 0)):
    """The encoder, its linear layers named by `quantized(name)` computed
    by `rounded(x, w)` (default: int8-rounded operands, per row and per
    output channel)."""
    import jax

    def linear(x, w, name):
        return rounded(x, w) if quantized(name) else x @ w

    return jax.jit(model.encoder(linear=linear))


GROUPS = [
    ("every linear layer", lambda n: True),
    ("Q, K, V", lambda n: "attention.self" in n),
    ("attention output", lambda n: "attention.output" in n),
    ("FFN in", lambda n: "intermediate" in n),
    ("FFN out", lambda n: ".output.dense" in n and "attention" not in n),
    ("layers 0-2", lambda n: any(f"layer.{i}." in n for i in range(3))),
    ("layers 3-5", lambda n: any(f"layer.{i}." in n for i in range(3, 6))),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_text_args(ap, passages=64, questions=16)
    ap.add_argument("--spread", action="store_true",
                    help="passages over the whole corpus, questions from every split")
    args = ap.parse_args()
    model = MiniLM.load(args.model)
    passages, questions = read_texts(args.data, args.passages, args.questions,
                                     spread=args.spread)
    texts = passages + questions
    bs = batches(model, texts, args.batch, args.seq)
    counts = [min(args.batch, len(texts) - i) for i in range(0, len(texts), args.batch)]
    n = len(passages)

    def embed(quantized, **rounding):
        f = encoder(model, quantized, **rounding)
        return np.concatenate([np.asarray(f(x, m, *model.weights()))[:c]
                               for (x, m), c in zip(bs, counts)])

    exact = embed(lambda name: False)
    reference = rankings(exact[n:], exact[:n])
    print(f"int8 on one group of MiniLM's linear layers ({len(questions)} questions, "
          f"{n} passages): retrieval QoS (RBO of the top-10 against exact)")
    groups = {}
    for label, group in GROUPS:
        e = groups[label] = embed(group)
        rbo = rbo_mean(reference, rankings(e[n:], e[:n]))
        print(f"  {label}: RBO {rbo:.4f} (loss {1 - rbo:.2%})", flush=True)
    print("every linear layer, other roundings:")
    for label, rounded in SCHEMES:
        e = embed(lambda name: True, rounded=rounded)
        rbo = rbo_mean(reference, rankings(e[n:], e[:n]))
        print(f"  {label}: RBO {rbo:.4f} (loss {1 - rbo:.2%})", flush=True)
    print("every linear layer int8, one side of the retrieval:")
    e = groups["every linear layer"]
    for label, q, p in (("passages int8, questions exact", exact[n:], e[:n]),
                        ("questions int8, passages exact", e[n:], exact[:n])):
        rbo = rbo_mean(reference, rankings(q, p))
        print(f"  {label}: RBO {rbo:.4f} (loss {1 - rbo:.2%})", flush=True)


if __name__ == "__main__":
    main()
