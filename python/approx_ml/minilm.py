"""all-MiniLM-L6-v2 written in JAX, from its PyPI safetensors weights.

The sentence-transformers network (BERT encoder, mean pooling over the
attention mask, L2 normalisation) for a fixed batch shape [batch, seq]. The
word-embedding lookup happens on the host (`inputs`, a row gather from the
30522×384 table). The encoder's weights are arguments of the exported
function (`weights()`, in a fixed order): as constants they would make an
85 MB module whose compilation takes minutes.

    model = MiniLM.load(model_dir)
    x, mask = model.inputs(texts, batch=8, seq=128)
    fn = model.encoder()            # (x [B,S,384], mask [B,S], *weights) -> [B,384]
    emb = jax.jit(fn)(x, mask, *model.weights())          # XLA
    mlir = approx_ml.export_to_mlir(fn, x, mask, *model.weights(), name="minilm")
"""

from __future__ import annotations

import json
import os

import numpy as np


class MiniLM:
    def __init__(self, cfg: dict, weights: dict, tokenizer, max_len: int):
        self.cfg, self.w, self.tok, self.max_len = cfg, weights, tokenizer, max_len

    @classmethod
    def load(cls, model_dir: str) -> "MiniLM":
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        for f in ("config.json", "model.safetensors", "tokenizer.json",
                  "sentence_bert_config.json"):
            if not os.path.exists(os.path.join(model_dir, f)):
                raise FileNotFoundError(f"{model_dir}: no {f} (not an all-MiniLM-L6-v2 "
                                        "folder; scripts/fetch_models.py extracts it)")
        with open(os.path.join(model_dir, "config.json")) as f:
            cfg = json.load(f)
        with open(os.path.join(model_dir, "sentence_bert_config.json")) as f:
            max_len = json.load(f)["max_seq_length"]
        weights = {k.removeprefix("bert."): v.astype(np.float32)
                   for k, v in load_file(os.path.join(model_dir,
                                                      "model.safetensors")).items()
                   if v.dtype != np.int64}
        tok = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
        return cls(cfg, weights, tok, max_len)

    def inputs(self, texts: list, *, batch: int, seq: int) -> tuple:
        """(word embeddings [batch, seq, H] float32, mask [batch, seq]
        float32) of `texts` (at most `batch`; padded), truncated to `seq`
        tokens."""
        if len(texts) > batch:
            raise ValueError(f"{len(texts)} texts for a batch of {batch}")
        self.tok.no_padding()
        self.tok.enable_truncation(min(seq, self.max_len))
        ids = np.zeros((batch, seq), np.int32)
        mask = np.zeros((batch, seq), np.float32)
        for i, t in enumerate(texts):
            enc = self.tok.encode(t).ids
            ids[i, :len(enc)] = enc
            mask[i, :len(enc)] = 1.0
        table = self.w["embeddings.word_embeddings.weight"]
        return table[ids], mask

    def weight_names(self) -> list:
        """The encoder's weights, in the order `encoder()` takes them."""
        return sorted(k for k in self.w if k != "embeddings.word_embeddings.weight")

    def is_linear(self, name: str) -> bool:
        """Whether weight `name` is a linear layer's matrix ([out, in] in
        the checkpoint)."""
        return name.startswith("encoder.") and self.w[name].ndim == 2

    def weights(self, *, transposed: bool = False) -> list:
        """The encoder's weights in `weight_names()` order; with
        `transposed`, the linear layers' matrices as [in, out] (for
        `encoder(transposed=True)`)."""
        return [np.ascontiguousarray(self.w[k].T) if transposed and self.is_linear(k)
                else self.w[k] for k in self.weight_names()]

    def encoder(self, *, layers: int | None = None, linear=None,
                transposed: bool = False):
        """The encoder as a JAX function (x, mask, *weights) -> normalised
        embeddings. `linear(x, w, name)`, if given, computes the linear layer
        `name` (x @ w with w [in, out], before the bias) instead of x @ w.
        With `transposed`, the function takes the linear layers' matrices
        already as [in, out] (`weights(transposed=True)`): a call then does
        not transpose 10.6 M weights, which for a small batch costs as much
        as the encoder's arithmetic."""
        import jax
        import jax.numpy as jnp

        cfg = self.cfg
        names = self.weight_names()
        eps = cfg["layer_norm_eps"]
        heads = cfg["num_attention_heads"]
        hidden = cfg["hidden_size"]
        dh = hidden // heads
        n_layers = cfg["num_hidden_layers"] if layers is None else layers

        def encode(x, mask, *weights):
            w = dict(zip(names, weights))

            def ln(x, name):
                m = jnp.mean(x, axis=-1, keepdims=True)
                v = jnp.mean((x - m) ** 2, axis=-1, keepdims=True)
                return (x - m) * jax.lax.rsqrt(v + eps) * w[name + ".weight"] + \
                    w[name + ".bias"]

            def lin(x, name):
                wt = w[name + ".weight"] if transposed else w[name + ".weight"].T
                y = x @ wt if linear is None else linear(x, wt, name)
                return y + w[name + ".bias"]

            b, s, _ = x.shape
            x = x + w["embeddings.position_embeddings.weight"][:s] + \
                w["embeddings.token_type_embeddings.weight"][0]
            x = ln(x, "embeddings.LayerNorm")
            bias = (1.0 - mask)[:, None, None, :] * -1e9
            for i in range(n_layers):
                p = f"encoder.layer.{i}."

                def split(t):
                    return t.reshape(b, s, heads, dh).transpose(0, 2, 1, 3)
                q = split(lin(x, p + "attention.self.query"))
                k = split(lin(x, p + "attention.self.key"))
                v = split(lin(x, p + "attention.self.value"))
                scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(dh) + bias
                att = jax.nn.softmax(scores, axis=-1)
                a = jnp.einsum("bhqk,bhkd->bhqd", att, v)
                a = a.transpose(0, 2, 1, 3).reshape(b, s, hidden)
                x = ln(x + lin(a, p + "attention.output.dense"),
                       p + "attention.output.LayerNorm")
                h = jax.nn.gelu(lin(x, p + "intermediate.dense"), approximate=False)
                x = ln(x + lin(h, p + "output.dense"), p + "output.LayerNorm")
            pooled = (x * mask[..., None]).sum(1) / jnp.maximum(
                mask.sum(1, keepdims=True), 1.0)
            return pooled / jnp.maximum(
                jnp.sqrt((pooled * pooled).sum(-1, keepdims=True)), 1e-12)

        encode.__name__ = "minilm"
        return encode
