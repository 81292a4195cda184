#!/usr/bin/env python3
"""approx-cc quality bars, measured side by side in one run:
 - run time of the exact approx-cc build, and of the runtime-table build at
   its exact configuration, vs native clang -O3 on benchmarks/cc/kernels.c
   (alternating runs, medians, ratios), and equality of their outputs'
   checksums;
 - compile time of a generated 500-line C file to an executable (median of
   repeated builds), next to clang -O2 on the same file.
Usage: run.py BUILD_DIR [repetitions]"""
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build = os.path.abspath(sys.argv[1])
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 11
here = os.path.dirname(os.path.abspath(__file__))
cc = os.path.join(build, "bin", "approx-cc")
clang = "/usr/lib/llvm-22/bin/clang"
tmp = tempfile.mkdtemp(prefix="approx-cc-bench-")
atexit.register(shutil.rmtree, tmp, ignore_errors=True)


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


kernels = os.path.join(here, "kernels.c")
exe_cc = os.path.join(tmp, "kernels-approx-cc")
exe_ref = os.path.join(tmp, "kernels-clang")
exe_table = os.path.join(tmp, "kernels-table")
run([cc, kernels, "-O3", "--approx-exact", "-o", exe_cc])
run([cc, kernels, "-O3", "--approx-runtime-table", "-o", exe_table])
run([clang, kernels, "-O3", "-o", exe_ref])

times = {"approx-cc": {}, "table": {}, "clang": {}}
checks = {}
for _ in range(reps):
    for label, exe in (("approx-cc", exe_cc), ("table", exe_table), ("clang", exe_ref)):
        for line in run([exe]).splitlines():
            name, checksum, seconds = line.split()
            times[label].setdefault(name, []).append(float(seconds))
            checks.setdefault(name, {})[label] = checksum

print("## Exact approx-cc build vs clang -O3\n")
print(f"benchmarks/cc/kernels.c, median of {reps} alternating runs; the runtime-table build "
      "(`--approx-runtime-table`) at its exact configuration; asserts: a loop with a knob and "
      "asserts, no -DNDEBUG.\n")
print("| kernel | clang -O3 ms | approx-cc ms | clang / approx-cc | table ms | clang / table "
      "| same result |")
print("|---|---|---|---|---|---|---|")
ratios, table_ratios = [], []
for name in times["clang"]:
    c = statistics.median(times["clang"][name])
    a = statistics.median(times["approx-cc"][name])
    t = statistics.median(times["table"][name])
    ratios.append(c / a)
    table_ratios.append(c / t)
    same = len(set(checks[name].values())) == 1
    print(f"| {name} | {1e3 * c:.2f} | {1e3 * a:.2f} | {c / a:.3f} | {1e3 * t:.2f} | {c / t:.3f} "
          f"| {'yes' if same else 'NO'} |")
print(f"| geometric mean | | | {statistics.geometric_mean(ratios):.3f} | | "
      f"{statistics.geometric_mean(table_ratios):.3f} | |")

src = os.path.join(tmp, "gen500.c")
with open(src, "w") as f:
    f.write(run([sys.executable, os.path.join(here, "gen_source.py"), "500"]))
lines = sum(1 for _ in open(src))


def timed(cmd, n=5):
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        run(cmd)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


t_cc = timed([cc, src, "-O2", "-o", os.path.join(tmp, "gen-cc")])
t_ref = timed([clang, src, "-O2", "-o", os.path.join(tmp, "gen-ref")])
same = run([os.path.join(tmp, "gen-cc")]) == run([os.path.join(tmp, "gen-ref")])
print("\n## Compile time\n")
print(f"A generated {lines}-line C file with one knob, to an executable, median of 5.\n")
print("| compiler | seconds |")
print("|---|---|")
print(f"| approx-cc -O2 | {t_cc:.3f} |")
print(f"| clang -O2 | {t_ref:.3f} |")
print(f"\nSame output: {'yes' if same else 'NO'} (the knob's state is 0: exact).")
