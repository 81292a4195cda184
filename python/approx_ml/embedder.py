"""all-MiniLM-L6-v2 compiled for C programs: the query embedder of the
LLM + RAG (kb) system (benchmarks/compound/common/minilm_embedder.h).

    python -m approx_ml.embedder --model HF_DIR --out DIR [--batch 16] [--seqs 16,32]

writes to DIR:
  - minilm-<k>-<seq>.so: the encoder (`MiniLM.encoder(transposed=True)`, a
    batch of `batch` texts of `seq` tokens) through the approx pipeline, one
    library per build of `BUILDS` (k = its index: the C program's
    func_substitute variant) and per sequence length of `seqs` (the C side
    sorts texts by length and gives each batch the shortest that holds it:
    shapes are static, and padding every question to the longest length
    would double the work);
  - weights.f32: the word-embedding table, then the encoder's weights in
    the order the function takes them (float32, row-major, concatenated);
  - embedder.txt: what the C side reads (shapes, tensors, builds) and the
    inputs they were made from; a later run with the same inputs (model,
    compiler, shape) returns at once.
Files are built in a temporary folder beside DIR and renamed into place.
The C side tokenizes with the model's GGUF (llama.cpp, the same WordPiece
vocabulary) and looks the word embeddings up itself.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import time

from .native import CompileError

FORMAT = "approx-minilm-embedder 1"

# The builds, in the C program's variant order: (name, annotation or None
# for the exact build). What each costs and loses: docs/ml.md.
BUILDS = [
    ("exact", None),
    ("bf16-matmuls", ("precision_reduce", 3)),
    ("int8-weights", ("decode_quantize", 3)),
    ("int8", ("decode_quantize", 1)),
]


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _inputs(model_dir: str, batch: int, seqs: list) -> str:
    """The line that says what the folder was made from."""
    from .native import tool

    return (f"inputs model={_sha256(os.path.join(model_dir, 'model.safetensors'))[:16]} "
            f"compiler={_sha256(tool('approx-compile'))[:16]} batch={batch} "
            f"seqs={','.join(map(str, seqs))} "
            f"builds={','.join(n for n, _ in BUILDS)}")


def _library(build: int, seq: int) -> str:
    """The file of build `build` at `seq` tokens (minilm_embedder.h opens it)."""
    return f"minilm-{build}-{seq}.so"


def _up_to_date(out: str, inputs: str, seqs: list) -> bool:
    try:
        with open(os.path.join(out, "embedder.txt")) as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    return len(lines) > 1 and lines[0] == FORMAT and lines[1] == inputs and all(
        os.path.exists(os.path.join(out, _library(k, seq)))
        for k in range(len(BUILDS)) for seq in seqs)


def build(model_dir: str, out: str, *, batch: int = 16, seqs=(16, 32),
          log=lambda msg: None) -> bool:
    """Writes the embedder folder `out` (see the module doc); returns False
    when it was already up to date."""
    from .export import build_library, export_to_mlir, inject_annotations
    from .minilm import MiniLM

    seqs = sorted(set(seqs))
    if batch < 1 or not seqs or seqs[0] < 2:
        raise ValueError(f"batch {batch} and seqs {seqs}: need batch >= 1, seqs >= 2")
    inputs = _inputs(model_dir, batch, seqs)
    if _up_to_date(out, inputs, seqs):
        log(f"{out} is up to date")
        return False
    model = MiniLM.load(model_dir)
    hidden = model.cfg["hidden_size"]
    weights = model.weights(transposed=True)
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".embedder-", dir=parent)
    try:
        done = 0
        for seq in seqs:
            x, mask = model.inputs([], batch=batch, seq=seq)
            mlir = export_to_mlir(model.encoder(transposed=True), x, mask, *weights,
                                  name="minilm")
            for k, (name, knob) in enumerate(BUILDS):
                start = time.perf_counter()
                text = mlir if knob is None else inject_annotations(
                    mlir, "minilm", {"static_transform": dict(
                        transform_type=knob[0], knob_val=knob[1],
                        decision_values=[0, knob[1]])})
                build_library(text, exact=knob is None,
                              library=os.path.join(tmp, _library(k, seq)))
                done += 1
                log(f"library {done}/{len(BUILDS) * len(seqs)} ({name}, {seq} tokens) in "
                    f"{time.perf_counter() - start:.1f} s")
        table = model.w["embeddings.word_embeddings.weight"]
        names = ["embeddings.word_embeddings.weight"] + model.weight_names()
        lines = [FORMAT, inputs, f"batch {batch}", f"seqs {len(seqs)} {' '.join(map(str, seqs))}",
                 f"hidden {hidden}",
                 f"vocab {table.shape[0]}", f"tensors {len(names)}"]
        with open(os.path.join(tmp, "weights.f32"), "wb") as f:
            for name, w in zip(names, [table] + weights):
                lines.append(f"tensor {name} {w.ndim} {' '.join(map(str, w.shape))}")
                f.write(w.astype("<f4", copy=False).tobytes(order="C"))
        lines.append(f"builds {len(BUILDS)}")
        lines += [f"build {k} {name}" for k, (name, _) in enumerate(BUILDS)]
        with open(os.path.join(tmp, "embedder.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        if os.path.exists(out):
            shutil.rmtree(out)
        os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    log(f"{out}: {len(BUILDS)} builds of batches of {batch} texts of "
        f"{' or '.join(map(str, seqs))} tokens")
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m approx_ml.embedder",
        description="Compile all-MiniLM-L6-v2 for C programs (the kb system's query "
                    "embedder): one shared library per build, the weights, a manifest.")
    ap.add_argument("--model", required=True,
                    help="the model's folder (all-minilm-l6-v2.hf: safetensors, config)")
    ap.add_argument("--out", required=True, help="the folder to write")
    ap.add_argument("--batch", type=int, default=16, help="texts per call (default 16)")
    ap.add_argument("--seqs", default="16,32",
                    help="the sequence lengths compiled, in tokens with [CLS] and [SEP] "
                         "(comma-separated; default 16,32); texts longer than the longest "
                         "are truncated")
    args = ap.parse_args(argv)
    try:
        try:
            seqs = [int(v) for v in args.seqs.split(",")]
        except ValueError:
            ap.error(f"--seqs {args.seqs}: expected comma-separated integers")
        build(args.model, args.out, batch=args.batch, seqs=seqs,
              log=lambda m: print(f"embedder: {m}", file=sys.stderr, flush=True))
    except (OSError, ValueError, CompileError) as e:
        print(f"embedder: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
