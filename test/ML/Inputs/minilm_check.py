"""all-MiniLM-L6-v2 written in JAX (python/approx_ml/minilm.py) with its real
PyPI weights: XLA's embeddings agree with the independent numpy network of
scripts/bert_reference.py, and the ML route's native build agrees with XLA
(cosine >= 0.9999); decode_quantize and precision_reduce builds stay within
QoS bounds."""
import sys

import jax
import numpy as np

import approx_ml as am
from approx_ml.minilm import MiniLM
from approx_ml.native import omp_threads

model_dir = sys.argv[1]
sys.path.insert(0, sys.argv[2])  # scripts/, for bert_reference
from bert_reference import Bert  # noqa: E402

texts = ["who wrote pride and prejudice",
         "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars "
         "in Paris, France. It was completed in 1889.",
         "Hello World, this is Ünïcode café: naïve façades, 東京, and émigrés!"]
model = MiniLM.load(model_dir)
x, mask = model.inputs(texts, batch=4, seq=48)
fn = model.encoder()
xla = np.asarray(jax.jit(fn)(x, mask, *model.weights()))[:3]
ref = Bert(model_dir)
numpy_cos = min(float(ref.embed(t) @ e) for t, e in zip(texts, xla))
print(f"xla vs numpy reference: worst cosine {numpy_cos:.6f}")


def cosines(a, b):
    return np.sum(a * b, 1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


mlir = am.export_to_mlir(fn, x, mask, *model.weights(), name="minilm")
exact = am.compile_module(mlir, exact=True).minilm
native = exact(x, mask, *model.weights())[:3]
print(f"ours exact vs xla: worst cosine {cosines(native, xla).min():.6f}")
# Its large loops run on OpenMP threads: one thread gives the same bits.
with omp_threads(1) as threads:
    one = exact(x, mask, *model.weights())[:3]
print(f"ours exact on 1 and {threads} threads: "
      f"{'identical' if np.array_equal(one, native) else 'different'}")
# The linear layers' weights given as [in, out] (the kb system's compiled
# query embedder): the same network.
wt = model.weights(transposed=True)
mlir_t = am.export_to_mlir(model.encoder(transposed=True), x, mask, *wt, name="minilm")
native_t = am.compile_module(mlir_t, exact=True).minilm(x, mask, *wt)[:3]
print(f"ours exact, transposed weights vs xla: worst cosine {cosines(native_t, xla).min():.6f}")
# int8 matmuls (3: the weights' only, attention stays f32); bf16 matmuls
# (AVX-512 BF16 dot products where the CPU has them), the rest f32.
for kind, k in (("decode_quantize", 1), ("decode_quantize", 3), ("precision_reduce", 3)):
    annotated = am.inject_annotations(mlir, "minilm", {"static_transform": dict(
        transform_type=kind, knob_val=k, decision_values=[0, k])})
    approx = am.compile_module(annotated).minilm(x, mask, *model.weights())[:3]
    c = cosines(approx, xla)
    print(f"{kind} {k} vs xla: worst cosine {c.min():.6f}, "
          f"{'identical' if np.array_equal(approx, native) else 'approximate'}")
