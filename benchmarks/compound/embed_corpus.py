#!/usr/bin/env python3
"""Embeds a corpus's passages once, for the LLM + RAG (kb) system.

  embed_corpus.py --data DIR --model GGUF --approx-llm BIN [--topics K] [--seed S]
                  [--cache DIR]

Reads DIR/passages.tsv (corpus.py), embeds each passage as "title: text"
with the sentence-embedding model (approx-llm embed-file: mean pooling,
L2-normalised, truncated to 256 tokens as sentence-transformers does;
progress on stderr), groups the passages into K topics by seeded spherical
k-means, and writes DIR/passages.emb in the kb kernel's layout: one line per
passage, its topic then its numbers with 6 decimals. DIR/passages.f32 keeps
the raw vectors and DIR/embeddings.json what they were made from (passages
and model sha256, topics, seed): a later run with the same inputs reuses
them and returns at once; with --cache, the embeddings of a passage
collection already embedded for another corpus folder (the same passages,
model, topics and seed: e.g. another number of questions) are copied from
there. Files are written to temporary names and renamed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import sha256  # noqa: E402  (one checksum helper for the corpus files)


def log(msg):
    print(f"embed-corpus: {msg}", file=sys.stderr, flush=True)


def read_passages(path):
    texts = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or not fields[2].strip():
                sys.exit(f"embed-corpus: error: {path}:{n}: expected 'id<TAB>title<TAB>text'")
            title, text = fields[1].strip(), fields[2].strip()
            texts.append(f"{title}: {text}" if title else text)
    if not texts:
        sys.exit(f"embed-corpus: error: {path}: no passages")
    return texts


def kmeans(x, k, seed, iterations=25):
    """Spherical k-means (cosine), seeded k-means++ start; returns labels."""
    rng = np.random.default_rng(seed)
    k = min(k, len(x))
    centers = [x[rng.integers(len(x))]]
    best = 1 - x @ centers[0]
    for _ in range(1, k):
        p = np.maximum(best, 0) ** 2
        i = rng.choice(len(x), p=p / p.sum()) if p.sum() > 0 else rng.integers(len(x))
        centers.append(x[i])
        best = np.minimum(best, 1 - x @ x[i])
    c = np.stack(centers)
    labels = None
    for _ in range(iterations):
        new = np.argmax(x @ c.T, axis=1)
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = x[labels == j]
            if len(members):
                m = members.sum(0)
                c[j] = m / max(np.linalg.norm(m), 1e-12)
    return labels


def atomic_write_text(path, write):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            write(f)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def atomic_copy(src, dest):
    tmp = dest + ".tmp"
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="corpus folder (passages.tsv)")
    ap.add_argument("--model", required=True, help="the sentence-embedding GGUF")
    ap.add_argument("--approx-llm", required=True, help="the approx-llm tool")
    ap.add_argument("--topics", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", help="a folder of embeddings shared by corpus folders")
    args = ap.parse_args()
    if args.topics < 1:
        ap.error("--topics must be at least 1")
    passages = os.path.join(args.data, "passages.tsv")
    for path in (passages, args.model):
        if not os.path.isfile(path):
            sys.exit(f"embed-corpus: error: {path}: no such file")
    stamp = {"passages_sha256": sha256(passages), "model_sha256": sha256(args.model),
             "topics": args.topics, "seed": args.seed}
    stamp_path = os.path.join(args.data, "embeddings.json")
    emb_path = os.path.join(args.data, "passages.emb")
    raw_path = os.path.join(args.data, "passages.f32")
    key = "-".join([stamp["passages_sha256"][:16], stamp["model_sha256"][:16],
                    str(args.topics), str(args.seed)])
    cached = os.path.join(args.cache, key + ".emb") if args.cache else None
    try:
        with open(stamp_path) as f:
            if json.load(f) == stamp and os.path.isfile(emb_path):
                log(f"{emb_path} is up to date")
                if cached and not os.path.isfile(cached):
                    os.makedirs(args.cache, exist_ok=True)
                    atomic_copy(emb_path, cached)
                return
    except (OSError, json.JSONDecodeError):
        pass
    if cached and os.path.isfile(cached):
        log(f"copying the embeddings of these passages from {cached}")
        atomic_copy(cached, emb_path)
        atomic_write_text(stamp_path, lambda f: json.dump(stamp, f, indent=2))
        return
    texts = read_passages(passages)
    start = time.perf_counter()
    log(f"embedding {len(texts)} passages with {os.path.basename(args.model)}")
    with tempfile.TemporaryDirectory(dir=args.data) as tmp:
        lines = os.path.join(tmp, "texts.txt")
        with open(lines, "w", encoding="utf-8") as f:
            for t in texts:
                f.write(t.replace("\n", " ") + "\n")
        r = subprocess.run([args.approx_llm, "embed-file", args.model, lines, raw_path,
                            "--ctx", "256", "--truncate"])
        if r.returncode != 0:
            sys.exit(f"embed-corpus: error: approx-llm embed-file failed (status {r.returncode})")
    x = np.fromfile(raw_path, dtype=np.float32)
    if x.size % len(texts):
        sys.exit(f"embed-corpus: error: {raw_path}: {x.size} floats for {len(texts)} passages")
    x = x.reshape(len(texts), -1)
    labels = kmeans(x.astype(np.float64), args.topics, args.seed)
    log(f"{len(texts)} embeddings of {x.shape[1]} values in {time.perf_counter() - start:.0f} s; "
        f"{len(set(labels.tolist()))} topics")

    def write(f):
        for label, row in zip(labels, x):
            f.write(f"{label} " + " ".join(f"{v:.6f}" for v in row) + "\n")

    atomic_write_text(emb_path, write)
    atomic_write_text(stamp_path, lambda f: json.dump(stamp, f, indent=2))
    log(f"wrote {emb_path}")
    if cached:
        os.makedirs(args.cache, exist_ok=True)
        atomic_copy(emb_path, cached)


if __name__ == "__main__":
    main()
