#!/usr/bin/env python3
"""The ML zoo (models.py) on the ML route against XLA: for each model and
batch size, our exact build's time against jax.jit's on the same inputs, and
each approximate build (a static knob over the whole model) with its QoS loss
against XLA's output and its time; the best approximate build at <= 1 % loss.

  bench.py [--models mlp,cnn,...] [--reps R] [--calls C] [--knobs LIST] [--out FILE]
  bench.py --check [--models ...]      (tiny sizes, exact builds only:
                                        the test suite's comparison)

Time: median of R rounds x C calls, each round calling XLA and every build
of that model in turn (so load on the shared machine hits all alike), each
once untimed and then C times back to back: the untimed call absorbs the
previous one's threads (ours spin 1 ms after a loop, approx_ml.native; XLA's
pool its own time), so that no timed call competes with another runtime's
threads. QoS loss:
for a classifier, the share of labels that differ from XLA's; otherwise the
relative L2 error ||y - y_xla|| / ||y_xla|| of the first output. Progress on
stderr; the report (markdown) to FILE (default benchmarks/results/ml/zoo.md)
with the machine's CPU and what it has of AVX-512 BF16/VNNI and AMX.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))

import approx_ml as am  # noqa: E402
from models import ZOO  # noqa: E402

# The approximate builds: (label, transform, knob value); passes.md.
KNOBS = {
    "int8": ("int8 matmuls (decode_quantize 1)", "decode_quantize", 1),
    "int8-tensor": ("int8 matmuls, per tensor (decode_quantize 2)", "decode_quantize", 2),
    "int8-weights": ("int8 weight matmuls (decode_quantize 3)", "decode_quantize", 3),
    "bf16": ("bf16 everywhere (precision_reduce 2)", "precision_reduce", 2),
    "bf16-matmuls": ("bf16 matmuls (precision_reduce 3)", "precision_reduce", 3),
}


def log(msg):
    print(f"zoo: {msg}", file=sys.stderr, flush=True)


def outputs(result):
    return [np.asarray(r) for r in (result if isinstance(result, (tuple, list)) else [result])]


def loss(model, ref, got):
    """The QoS loss of `got` against XLA's `ref` (first outputs)."""
    r, g = ref[0], got[0]
    if model.labels:
        return float(np.mean(r != g))
    return float(np.linalg.norm(g - r) / max(np.linalg.norm(r), 1e-30))


def max_rel_error(ref, got):
    """The worst element error of float outputs, relative to each output's
    largest magnitude; labels must be equal (else inf)."""
    worst = 0.0
    for r, g in zip(ref, got):
        if r.shape != g.shape:
            return float("inf")
        if not np.issubdtype(r.dtype, np.floating):
            if not np.array_equal(r, g):
                return float("inf")
            continue
        scale = max(float(np.max(np.abs(r))), 1e-30)
        worst = max(worst, float(np.max(np.abs(g - r))) / scale)
    return worst


def cpu():
    name, flags = "unknown", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and name == "unknown":
                    name = line.split(":", 1)[1].strip()
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    have = [f for f in ("avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8")
            if f in flags]
    return name, have, os.cpu_count()


def check(models):
    """Tiny sizes: every model's exact build against XLA."""
    import jax
    failed = 0
    for m in models:
        fn, args = m.make(2, tiny=True)
        ref = outputs(jax.jit(fn)(*args))
        mod = am.compile_module(am.export_to_mlir(fn, *args, name=m.name), exact=True)
        got = outputs(getattr(mod, m.name)(*args))
        err = max_rel_error(ref, got)
        ok = err <= 1e-4
        failed += not ok
        print(f"{'ok' if ok else 'FAIL'} {m.name} max relative error {err:.2e}")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=",".join(ZOO), help="default: %(default)s")
    ap.add_argument("--knobs", default=",".join(KNOBS),
                    help="approximate builds to try (default: %(default)s)")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--calls", type=int, default=3,
                    help="timed calls of each build per round, after one "
                         "untimed call (which absorbs the previous build's "
                         "threads still spinning; default %(default)s)")
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "ml", "zoo.md"))
    ap.add_argument("--check", action="store_true",
                    help="tiny sizes, exact builds against XLA (the test suite's check)")
    args = ap.parse_args()
    names = args.models.split(",")
    for n in names:
        if n not in ZOO:
            ap.error(f"unknown model '{n}' (choose from {', '.join(ZOO)})")
    knobs = args.knobs.split(",") if args.knobs else []
    for k in knobs:
        if k not in KNOBS:
            ap.error(f"unknown knob '{k}' (choose from {', '.join(KNOBS)})")
    if args.reps < 1:
        ap.error("--reps must be >= 1")
    if args.calls < 1:
        ap.error("--calls must be >= 1")
    models = [ZOO[n] for n in names]
    if args.check:
        sys.exit(1 if check(models) else 0)

    import jax
    rows = []
    started = time.time()
    load = os.getloadavg()[0]
    for m in models:
        for batch in m.batches:
            fn, a = m.make(batch)
            xla = jax.jit(fn)
            ref = outputs(xla(*a))
            base = am.export_to_mlir(fn, *a, name=m.name)
            builds = [("exact", None)] + [(k, KNOBS[k]) for k in knobs]
            funcs, quality = {}, {}
            for label, knob in builds:
                t0 = time.perf_counter()
                mlir = base if knob is None else am.inject_annotations(
                    base, m.name, {"static_transform": dict(
                        transform_type=knob[1], knob_val=knob[2],
                        decision_values=[0, knob[2]])})
                f = getattr(am.compile_module(mlir, exact=knob is None), m.name)
                got = outputs(f(*a))
                funcs[label] = f
                quality[label] = (loss(m, ref, got), max_rel_error(ref, got),
                                  time.perf_counter() - t0)
                log(f"{m.name} batch {batch}: {label} compiled in {quality[label][2]:.1f} s, "
                    f"loss {quality[label][0]:.2e} ({time.time() - started:.0f} s)")
            times = {"xla": []}
            times.update({k: [] for k in funcs})
            calls = {"xla": lambda: jax.block_until_ready(xla(*a))}
            calls.update({k: (lambda f=f: f(*a)) for k, f in funcs.items()})
            for _ in range(args.reps):
                for k, call in calls.items():
                    call()  # untimed: the previous build's threads may spin
                    for _ in range(args.calls):
                        t0 = time.perf_counter()
                        call()
                        times[k].append(time.perf_counter() - t0)
            med = {k: statistics.median(v) for k, v in times.items()}
            row = dict(model=m.name, batch=batch, xla=med["xla"], builds={
                k: dict(time=med[k], loss=quality[k][0], err=quality[k][1],
                        compile=quality[k][2]) for k in funcs})
            rows.append(row)
            log(f"{m.name} batch {batch}: XLA {med['xla'] * 1e3:.2f} ms, exact "
                f"{med['exact'] * 1e3:.2f} ms ({med['exact'] / med['xla']:.2f}x XLA's time)")
    md = report(rows, args, knobs, load)
    print(md)
    tmp = args.out + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(tmp, "w") as f:
        f.write(md)
    os.replace(tmp, args.out)


def report(rows, args, knobs, load):
    name, have, cores = cpu()
    out = ["# The ML zoo against XLA", "",
           f"`benchmarks/ml/zoo/bench.py --reps {args.reps} --calls {args.calls}`: "
           "every model of benchmarks/ml/zoo/models.py at two batch sizes; time = median of "
           f"{args.reps} rounds x {args.calls} calls (in each round XLA and every build in "
           f"turn, each called once untimed, which absorbs the previous one's threads still "
           f"spinning, then {args.calls} times back to back; same process, same inputs; load "
           f"average {load:.1f} at the start). CPU: {name}, "
           f"{cores} cores; it has "
           f"{', '.join(have) or 'none of AVX-512 VNNI/BF16, AMX'}. "
           "Time ratio = ours / XLA's (below 1: faster than XLA). Loss against XLA's "
           "output: share of labels changed (classifiers) or relative L2 error.", "",
           "| model | batch | XLA (ms) | exact (ms) | exact / XLA | max rel. error | "
           + " | ".join(f"{k} time / XLA, loss" for k in knobs)
           + " | best at ≤ 1 % loss: XLA / ours |",
           "|---|---|---|---|---|---|" + "---|" * len(knobs) + "---|"]
    ratios, best_speed, approx_speed = [], [], []
    for r in rows:
        b = r["builds"]
        ex = b["exact"]
        ratios.append(ex["time"] / r["xla"])
        cells = [r["model"], str(r["batch"]), f"{r['xla'] * 1e3:.2f}",
                 f"{ex['time'] * 1e3:.2f}", f"{ex['time'] / r['xla']:.2f}", f"{ex['err']:.1e}"]
        for k in knobs:
            cells.append(f"{b[k]['time'] / r['xla']:.2f}, {b[k]['loss']:.2%}")
        ok = [(v["time"], k) for k, v in b.items() if v["loss"] <= 0.01]
        t, k = min(ok)
        best_speed.append(r["xla"] / t)
        approx_speed.append(max([r["xla"] / tt for tt, kk in ok if kk != "exact"],
                                default=0.0))
        cells.append(f"{r['xla'] / t:.2f}× ({k})")
        out.append("| " + " | ".join(cells) + " |")
    geo = float(np.exp(np.mean(np.log(ratios))))
    out += ["", f"Exact / XLA, geometric mean over {len(rows)} model × batch pairs: "
            f"**{geo:.2f}** (worst {max(ratios):.2f}). Best build at ≤ 1 % loss (the exact "
            f"one included) at least 1.5× faster than XLA on "
            f"{sum(s >= 1.5 for s in best_speed)} of {len(rows)}; best approximate build "
            f"at ≤ 1 % loss (exact excluded) at least 1.5× faster than XLA on "
            f"{sum(s >= 1.5 for s in approx_speed)} of {len(rows)}.", ""]
    return "\n".join(out)


if __name__ == "__main__":
    main()
