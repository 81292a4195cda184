"""The ML zoo: models written in plain JAX, independently of the ML route,
with seeded weights (MiniLM: its real weights), at the two batch sizes the
benchmark measures and a tiny size for the test suite.

Each model is `make(batch, tiny) -> (fn, args)`: `fn(*args)` is the whole
model (inputs then weights, all arrays, so weights are arguments rather than
constants baked into the module); its first result is what quality is
measured on: class labels (`labels=True`: QoS loss = the share of labels
that differ from XLA's) or values (loss = relative L2 error against XLA's).
"""
from __future__ import annotations

import os
import sys
import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Model:
    name: str
    what: str
    make: Callable  # (batch, tiny) -> (fn, args)
    batches: tuple  # the benchmark's two batch sizes
    labels: bool = False


def _rng(name):
    """The model's own seeded generator (the same weights in every run)."""
    return np.random.default_rng(zlib.crc32(name.encode()))


def _dense(rng, n_in, n_out):
    """He-initialised weights [n_in, n_out] and a small bias."""
    w = rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)
    return w.astype(np.float32), (rng.standard_normal(n_out) * 0.01).astype(np.float32)


def _layernorm(x, g, b, eps=1e-5):
    import jax.numpy as jnp
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.mean((x - m) ** 2, axis=-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + eps) * g + b


def _attention(x, wqkv, bqkv, wo, bo, heads, causal):
    """Multi-head self-attention on x [B, T, D]."""
    import jax
    import jax.numpy as jnp
    b, t, d = x.shape
    dh = d // heads
    qkv = x @ wqkv + bqkv
    q, k, v = (qkv[..., i * d:(i + 1) * d].reshape(b, t, heads, dh).transpose(0, 2, 1, 3)
               for i in range(3))
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.float32(np.sqrt(dh))
    if causal:
        mask = jnp.tril(jnp.ones((t, t), bool))
        s = jnp.where(mask, s, np.float32(-1e9))
    p = jax.nn.softmax(s, axis=-1)
    a = jnp.einsum("bhqk,bhkd->bhqd", p, v).transpose(0, 2, 1, 3).reshape(b, t, d)
    return a @ wo + bo


def _block_weights(rng, d, mlp):
    """A pre-LN transformer block's weights."""
    wqkv, bqkv = _dense(rng, d, 3 * d)
    wo, bo = _dense(rng, d, d)
    w1, b1 = _dense(rng, d, mlp)
    w2, b2 = _dense(rng, mlp, d)
    ones, zeros = np.ones(d, np.float32), np.zeros(d, np.float32)
    return (ones, zeros, wqkv, bqkv * 0, wo * 0.5, bo, ones.copy(), zeros.copy(), w1, b1,
            w2 * 0.5, b2)


def _block(x, heads, causal, g1, be1, wqkv, bqkv, wo, bo, g2, be2, w1, b1, w2, b2):
    import jax
    x = x + _attention(_layernorm(x, g1, be1), wqkv, bqkv, wo, bo, heads, causal)
    h = jax.nn.gelu(_layernorm(x, g2, be2) @ w1 + b1, approximate=True)
    return x + h @ w2 + b2


# -- the models -------------------------------------------------------------

def mlp(batch, tiny=False):
    """The digits MLP of issue 41: 64-512-512-10, a narrow head, labels."""
    import jax.numpy as jnp
    rng = _rng("mlp")
    dims = (64, 32, 32, 10) if tiny else (64, 512, 512, 10)
    ws = []
    for a, b in zip(dims, dims[1:]):
        ws += _dense(rng, a, b)
    x = rng.uniform(0, 16, (batch, 64)).astype(np.float32)

    def fn(x, w1, b1, w2, b2, w3, b3):
        h = jnp.maximum(x @ w1 + b1, 0)
        h = jnp.maximum(h @ w2 + b2, 0)
        logits = h @ w3 + b3
        return jnp.argmax(logits, axis=-1), logits
    return fn, (x, *ws)


def cnn(batch, tiny=False):
    """A small CNN on 28 x 28 grey images: two 3 x 3 convolutions (SAME),
    ReLU and 2 x 2 max pooling each, a dense head; labels."""
    import jax
    import jax.numpy as jnp
    rng = _rng("cnn")
    side, c1, c2 = (8, 4, 8) if tiny else (28, 16, 32)
    k1 = (rng.standard_normal((3, 3, 1, c1)) * np.sqrt(2 / 9)).astype(np.float32)
    k2 = (rng.standard_normal((3, 3, c1, c2)) * np.sqrt(2 / (9 * c1))).astype(np.float32)
    wd, bd = _dense(rng, (side // 4) ** 2 * c2, 10)
    x = rng.uniform(0, 1, (batch, side, side, 1)).astype(np.float32)

    def conv(x, k):
        return jax.lax.conv_general_dilated(x, k, (1, 1), "SAME",
                                            dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def pool(x):
        return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1),
                                     "VALID")

    def fn(x, k1, k2, wd, bd):
        h = pool(jnp.maximum(conv(x, k1), 0))
        h = pool(jnp.maximum(conv(h, k2), 0))
        logits = h.reshape(h.shape[0], -1) @ wd + bd
        return jnp.argmax(logits, axis=-1), logits
    return fn, (x, k1, k2, wd, bd)


def gpt2_block(batch, tiny=False):
    """A GPT-2-style decoder block: pre-LN causal self-attention and a GELU
    MLP on [batch, 64 tokens, 256] (4 heads, MLP 1024)."""
    rng = _rng("gpt2")
    t, d, heads, m = (8, 16, 2, 32) if tiny else (64, 256, 4, 1024)
    ws = _block_weights(rng, d, m)
    x = rng.standard_normal((batch, t, d)).astype(np.float32)

    def fn(x, *ws):
        return (_block(x, heads, True, *ws),)
    return fn, (x, *ws)


def vit(batch, tiny=False):
    """A ViT-tiny-style classifier on 32 x 32 x 3 images: 4 x 4 patches
    embedded by a matmul, a position embedding, one encoder block (3 heads,
    d 192, MLP 768), mean pooling, a 10-class head; labels."""
    import jax.numpy as jnp
    rng = _rng("vit")
    side, p, d, heads, m = (8, 4, 12, 3, 24) if tiny else (32, 4, 192, 3, 768)
    n = (side // p) ** 2
    wp, bp = _dense(rng, p * p * 3, d)
    pos = (rng.standard_normal((n, d)) * 0.02).astype(np.float32)
    ws = _block_weights(rng, d, m)
    wh, bh = _dense(rng, d, 10)
    x = rng.uniform(0, 1, (batch, side, side, 3)).astype(np.float32)

    def fn(x, wp, bp, pos, *rest):
        ws, (wh, bh) = rest[:-2], rest[-2:]
        b = x.shape[0]
        g = side // p
        patches = x.reshape(b, g, p, g, p, 3).transpose(0, 1, 3, 2, 4, 5).reshape(
            b, g * g, p * p * 3)
        h = patches @ wp + bp + pos
        h = _block(h, heads, False, *ws)
        logits = jnp.mean(h, axis=1) @ wh + bh
        return jnp.argmax(logits, axis=-1), logits
    return fn, (x, wp, bp, pos, *ws, wh, bh)


def gru(batch, tiny=False):
    """A GRU cell, 16 steps over a sequence (unrolled): input 128, hidden
    256; returns the last hidden state."""
    import jax
    import jax.numpy as jnp
    rng = _rng("gru")
    steps, n_in, n_h = (3, 8, 16) if tiny else (16, 128, 256)
    wx, bx = _dense(rng, n_in, 3 * n_h)
    wh, bh = _dense(rng, n_h, 3 * n_h)
    xs = rng.standard_normal((steps, batch, n_in)).astype(np.float32)
    h0 = np.zeros((batch, n_h), np.float32)

    def fn(xs, h, wx, bx, wh, bh):
        for s in range(steps):
            gx = xs[s] @ wx + bx
            gh = h @ wh + bh
            r = jax.nn.sigmoid(gx[:, :n_h] + gh[:, :n_h])
            z = jax.nn.sigmoid(gx[:, n_h:2 * n_h] + gh[:, n_h:2 * n_h])
            c = jnp.tanh(gx[:, 2 * n_h:] + r * gh[:, 2 * n_h:])
            h = (1 - z) * c + z * h
        return (h,)
    return fn, (xs, h0, wx, bx, wh, bh)


def _questions(n):
    """The first n real NQ-open questions (../shared/data)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "compound"))
    import corpus
    rows = corpus.read_jsonl(os.path.join(corpus.DEFAULT_DATA, "nq_open_dev.jsonl.gz"))
    return [rec["question"] for _, (_, rec) in zip(range(n), rows)]


def minilm(batch, tiny=False):
    """all-MiniLM-L6-v2 (real weights, APPROX_MODELS) on real NQ-open
    questions, 32 tokens: sentence embeddings. Tiny: its first layer."""
    from approx_ml.minilm import MiniLM
    model = MiniLM.load(os.path.join(
        os.environ.get("APPROX_MODELS", os.path.expanduser("~/.cache/approxmlir/models")),
        "all-minilm-l6-v2.hf"))
    x, mask = model.inputs(_questions(batch), batch=batch, seq=8 if tiny else 32)
    enc = model.encoder(layers=1 if tiny else None, transposed=True)

    def fn(x, mask, *ws):
        return (enc(x, mask, *ws),)
    return fn, (x, mask, *model.weights(transposed=True))


ZOO = {m.name: m for m in [
    Model("mlp", mlp.__doc__, mlp, (256, 2048), labels=True),
    Model("cnn", cnn.__doc__, cnn, (32, 256), labels=True),
    Model("minilm", minilm.__doc__, minilm, (8, 64)),
    Model("gpt2_block", gpt2_block.__doc__, gpt2_block, (1, 8)),
    Model("vit", vit.__doc__, vit, (8, 64), labels=True),
    Model("gru", gru.__doc__, gru, (64, 512)),
]}
