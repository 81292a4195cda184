#!/usr/bin/env python3
"""bm25's exact kernel against its strongest exact peer: the same program
ranking over an inverted index (clang -O3 -DBM25_INVERTED) instead of a
forward index with a binary search per document and query term. Checks that
the peer's output equals the kernel's on the tuning input and the five
evaluation inputs, then times the kernel (clang -O3 and the exact approx-cc
build) and the peer alternately, median of R runs each, on the tuning input.

usage: bm25_peer.py [--size tiny|small|paper] [--repetitions R] [--build DIR]
                    [--out FILE]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernels import BENCH, CLANG, EVAL_INSTANCES, ROOT, log, run  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", choices=["tiny", "small", "paper"], default="paper")
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default=os.path.join(BENCH, "results", "bm25", "peer.md"))
    args = p.parse_args()
    if args.repetitions < 1:
        p.error("--repetitions must be at least 1")
    cc = os.path.join(os.path.abspath(args.build), "bin", "approx-cc")
    src = os.path.join(BENCH, "bm25", "bm25.c")
    with tempfile.TemporaryDirectory(prefix="approx-bm25-peer-") as work:
        exes = {"kernel, clang -O3": os.path.join(work, "native"),
                "kernel, approx-cc exact": os.path.join(work, "exact"),
                "inverted index, clang -O3": os.path.join(work, "inverted")}
        log("bm25: building")
        run([CLANG, "-O3", src, "-o", exes["kernel, clang -O3"], "-lm"])
        run([cc, "-O3", "--approx-exact", src, "-o", exes["kernel, approx-cc exact"]])
        run([CLANG, "-O3", "-DBM25_INVERTED", src, "-o", exes["inverted index, clang -O3"],
             "-lm"])
        for i in [0] + EVAL_INSTANCES:
            outs = []
            for tag, exe in exes.items():
                out = os.path.join(work, f"{i}-{len(outs)}.out")
                run([exe, "--size", args.size, "--instance", str(i), "--output", out])
                with open(out) as f:
                    outs.append(f.read())
            if any(o != outs[0] for o in outs):
                sys.exit(f"bm25_peer.py: error: outputs differ on instance {i}")
        log(f"bm25: outputs identical on instances 0-{EVAL_INSTANCES[-1]}; timing")
        times = {tag: [] for tag in exes}
        out = os.path.join(work, "scratch.out")
        for _ in range(args.repetitions):
            for tag, exe in exes.items():
                times[tag].append(float(run([exe, "--size", args.size, "--instance", "0",
                                             "--output", out])))
    base = statistics.median(times["kernel, clang -O3"])
    md = ["# bm25: the exact kernel against an inverted index", "",
          f"Kernel time (the program's own timer: indexing and ranking) on the tuning input at "
          f"size {args.size}, median of {args.repetitions} alternating runs each, same session; "
          f"outputs identical on the tuning input and the five evaluation inputs. Written by "
          "`benchmarks/bm25_peer.py`.", "",
          "| build | time (s) | speedup over the kernel (clang -O3) |", "|---|---|---|"]
    for tag, ts in times.items():
        t = statistics.median(ts)
        md.append(f"| {tag} | {t:.4f} | {base / t:.2f}x |")
    text = "\n".join(md) + "\n"
    print(text)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
