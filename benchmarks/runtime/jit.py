#!/usr/bin/env python3
"""JIT re-specialisation measured on pagerank (docs/runtime.md, issue 40).

1. pagerank's annotated MLIR (approx-cc --emit=annotated), and the
   controller's view of the tuned frontier (held-out columns);
2. `control`: units of work under the controller with a goal between the
   fastest point within the loss bound and the next more accurate one; the
   Respecializer compiles the settled point's baked build in the background
   and swaps it in;
3. the settled configuration's AOT baked build (approx-cc --approx-config,
   as a shared library);
4. `compare`: the table build, the re-specialised build and the AOT baked
   build at that configuration, timed alternately in one process (medians).

Writes jit.json (everything) and the `jit` entry of summary.json in --out."""
import argparse
import atexit
import json
import os
import shutil
import tempfile

from common import KERNEL, add_arguments, prepare, repo, run, update_summary, write_json


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(ap)
    ap.add_argument("--units", type=int, default=40)
    ap.add_argument("--settle", type=int, default=5)
    ap.add_argument("--reps", type=int, default=11)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="approx-jit-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    bench, cc, common, points, target, goal = prepare(a, tmp)
    control = json.loads(run([bench, "control"] + common + [
        "--units", str(a.units), "--settle", str(a.settle), "--target", repr(goal)]))
    settled = control["settled_point"]
    config = os.path.join(tmp, "settled.json")
    with open(config, "w") as f:
        json.dump(control["settled_config"], f)
    obj, lib = os.path.join(tmp, "pagerank.o"), os.path.join(tmp, "libpagerank.so")
    run([cc, "-O3", f"--approx-config={config}", "-c", KERNEL, "-o", obj])
    run(["cc", "-shared", "-Wl,-Bsymbolic", obj,
         os.path.join(a.build, "lib", "libapprox_runtime.a"), "-lm", "-lpthread", "-o", lib])
    compare = json.loads(run([bench, "compare"] + common + [
        "--point", str(settled), "--aot", lib, "--reps", str(a.reps)]))

    write_json(os.path.join(a.out, "jit.json"), {
        "kernel": "pagerank", "size": a.size, "frontier": os.path.relpath(a.frontier, repo),
        "target_point": target, "control": control, "compare": compare})
    j = {"kernel": "pagerank", "size": a.size, "point": settled,
         "qos": points[settled]["qos"],
         "settled_vs_baked": compare["settled_vs_baked"],
         "table_vs_baked": compare["table_vs_baked"],
         "compile_seconds": compare["compile_seconds"],
         "break_even_units": compare["break_even_units"],
         "same_output": compare["same_output"],
         "first_baked_unit": control["first_baked_unit"], "reps": a.reps}
    update_summary(a.out, "jit", j)
    print(f"pagerank (size {a.size}), settled on point {settled} (QoS {j['qos']:.3f}; "
          f"goal between points {target} and {target + 1}), baked from unit "
          f"{control['first_baked_unit']} of {a.units}")
    print(f"medians of {a.reps}: table {compare['table_seconds']:.4f} s, re-specialised "
          f"{compare['jit_baked_seconds']:.4f} s, AOT baked {compare['aot_baked_seconds']:.4f} s")
    print(f"re-specialised / AOT baked {j['settled_vs_baked']:.3f}x, table / AOT baked "
          f"{j['table_vs_baked']:.3f}x, compile {j['compile_seconds']:.2f} s, break-even "
          + (f"{j['break_even_units']:.1f} units" if j["break_even_units"] is not None
             else "never (the table build is not slower)")
          + f", same output: {j['same_output']}")


if __name__ == "__main__":
    main()
