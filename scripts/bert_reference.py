#!/usr/bin/env python3
"""An independent reference for the embedding model: the sentence-transformers
BERT network (all-MiniLM-L6-v2) written out in numpy from its safetensors
weights, tokenized by Hugging Face's `tokenizers` from the model's own
tokenizer.json (nothing of llama.cpp or of our GGUF conversion), compared
with the engine's embeddings (approx-llm embed on the converted GGUF).

  bert_reference.py MODEL_DIR GGUF APPROX_LLM [--min-cosine C] SENTENCE...

Both truncate a text to the model's max_seq_length (256 tokens). Prints one
line per sentence (cosine similarity of the two embeddings) and exits 1 if
any is below --min-cosine (default 0.999).
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):  # BERT's exact (erf) GELU
    from math import erf, sqrt
    return 0.5 * x * (1 + np.vectorize(erf)(x / sqrt(2)))


class Bert:
    def __init__(self, model_dir):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
        with open(os.path.join(model_dir, "config.json")) as f:
            self.cfg = json.load(f)
        with open(os.path.join(model_dir, "sentence_bert_config.json")) as f:
            self.max_len = json.load(f)["max_seq_length"]
        self.w = {k.removeprefix("bert."): v.astype(np.float64)
                  for k, v in load_file(os.path.join(model_dir, "model.safetensors")).items()
                  if v.dtype != np.int64}
        self.tok = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
        self.tok.no_padding()
        self.tok.enable_truncation(self.max_len)

    def embed(self, text):
        """Mean-pooled, L2-normalised sentence embedding (sentence-transformers'
        Transformer -> Pooling(mean) -> Normalize)."""
        w, cfg = self.w, self.cfg
        ids = np.array(self.tok.encode(text).ids)
        eps = cfg["layer_norm_eps"]
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][: len(ids)]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        heads = cfg["num_attention_heads"]
        dh = cfg["hidden_size"] // heads
        for i in range(cfg["num_hidden_layers"]):
            p = f"encoder.layer.{i}."

            def lin(name, v):
                return v @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            q, k, v = (lin(f"attention.self.{n}", x).reshape(len(ids), heads, dh)
                       .transpose(1, 0, 2) for n in ("query", "key", "value"))
            s = q @ k.transpose(0, 2, 1) / np.sqrt(dh)
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(1, 0, 2).reshape(len(ids), -1)
            x = layer_norm(x + lin("attention.output.dense", a),
                           w[p + "attention.output.LayerNorm.weight"],
                           w[p + "attention.output.LayerNorm.bias"], eps)
            h = lin("output.dense", gelu(lin("intermediate.dense", x)))
            x = layer_norm(x + h, w[p + "output.LayerNorm.weight"],
                           w[p + "output.LayerNorm.bias"], eps)
        e = x.mean(0)
        return e / np.linalg.norm(e)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model_dir")
    ap.add_argument("gguf")
    ap.add_argument("approx_llm")
    ap.add_argument("--min-cosine", type=float, default=0.999)
    ap.add_argument("sentences", nargs="+")
    args = ap.parse_args()
    ref = Bert(args.model_dir)
    worst = 1.0
    for s in args.sentences:
        r = subprocess.run([args.approx_llm, "embed", args.gguf, s, "--ctx", str(ref.max_len),
                            "--truncate"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"bert-reference: approx-llm failed: {r.stderr.strip()}")
        words = r.stdout.split()
        engine = np.array([float(x) for x in words[1:]])
        mine = ref.embed(s)
        if len(engine) != len(mine):
            sys.exit(f"bert-reference: engine gave {len(engine)} values, reference {len(mine)}")
        cos = float(engine @ mine / (np.linalg.norm(engine) * np.linalg.norm(mine)))
        worst = min(worst, cos)
        print(f"cosine {cos:.6f}  {s[:60]}")
    print(f"worst cosine {worst:.6f} (minimum {args.min_cosine})")
    sys.exit(0 if worst >= args.min_cosine else 1)


if __name__ == "__main__":
    main()
