#!/usr/bin/env python3
"""The five kernel benchmarks of the ApproxMLIR paper, tuned end to end.

For each kernel: builds it natively (clang -O3) and through approx-cc (exact,
and runtime table), writes the exact outputs of the tuning input (instance 0),
of the five evaluation (test) inputs (instances 1-5) and of the calibration
inputs (instances 100-249 by default), compares the exact approx-cc build
with clang -O3, tunes the static and the dynamic space with approx-tune on
the tuning input (the dynamic search starting from the static frontier),
re-measures each frontier on the test inputs and certifies a pick per QoS
loss level on the calibration inputs (approx-tune --certify: its loss is at
most the level with probability 0.95), every point baked into the program as
it would deploy; then bakes each level's pick (read from approx-tune's
summary.json, chosen without the test inputs) into a deployment build, times
it against the exact build on the test inputs, and writes
benchmarks/results/<kernel>/ (report.md, summary.json, static/ and dynamic/
with best_config.json, pareto.csv, plot.svg, speedup.txt, summary.json).
benchmarks/results/summary.md gathers every kernel with results next to the
paper's numbers.

usage: kernels.py [KERNEL ...] [--size tiny|small|paper] [--max-evals N]
                  [--time-budget SECONDS] [--repetitions R] [--seed S]
                  [--calibration N] [--calibration-jobs J] [--delta D]
                  [--certify-candidates N] [--build DIR] [--results DIR]
                  [--work DIR [--resume]]
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "benchmarks")

# name -> (source, approx-qos metric, paper: knobs, config space, frontier)
KERNELS = {
    "lavamd": ("lavamd/lavamd.c", ["l2"], 2, 1.6e3, "~1.8x at ~29% loss"),
    "kb": ("kb/kb.c", ["rbo-mean"], 2, 450, "~2.0x at ~7% loss"),
    "bm25": ("bm25/bm25.c", ["rbo-mean"], 3, 4.8e6, "~2.1x at ~26% loss"),
    "pagerank": ("pagerank/pagerank.c", ["rbo"], 3, 2.25e3, "~2.2x at ~13% loss"),
    "kmeans": ("kmeans/kmeans.c", ["l2-matched", "8"], 3, 5e10,
               "~12x at ~29% loss; 7.38x at <= 9%"),
}
# The approximate-computing suite (issue 43, benchmarks/axbench): C++
# programs written here after AxBench's, with its metrics; name -> (source,
# approx-qos metric). Their reference is loop perforation's published
# figure, not per-program numbers.
SUITE = {
    "blackscholes": ("axbench/blackscholes.cpp", ["relative-error"]),
    "inversek2j": ("axbench/inversek2j.cpp", ["relative-error"]),
    "jmeint": ("axbench/jmeint.cpp", ["miss-rate"]),
    "sobel": ("axbench/sobel.cpp", ["image-rmse"]),
    "jpeg": ("axbench/jpeg.cpp", ["image-rmse"]),
}
PERFORATION_2011 = ("loop perforation (Sidiroglou-Douskos et al., FSE 2011): typically "
                    "> 2x at < 10% distortion")
LEVELS = ["3", "6", "9"]
CLANG = "/usr/lib/llvm-22/bin/clang"
EVAL_INSTANCES = [1, 2, 3, 4, 5]
FIRST_CALIBRATION_INSTANCE = 100


def log(msg):
    print(f"[kernels] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def cpu_name():
    """The CPU's model name (/proc/cpuinfo), or "unknown"."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def native_compiler(src):
    """clang for C, clang++ for C++ (the peer approx-cc is compared with)."""
    return CLANG + ("++" if src.endswith(".cpp") else "")


def timed_compile(cmd):
    start = time.perf_counter()
    run(cmd)
    return time.perf_counter() - start


class Kernel:
    def __init__(self, name, args, tools, work):
        self.name = name
        if name in KERNELS:
            src, self.metric, self.paper_knobs, self.paper_space, self.paper_front = KERNELS[name]
        else:
            (src, self.metric), self.paper_knobs, self.paper_space, self.paper_front = (
                SUITE[name], None, None, PERFORATION_2011)
        self.src = os.path.join(BENCH, src)
        self.args = args
        self.tools = tools
        self.work = os.path.join(work, name)
        self.refdir = os.path.join(self.work, "ref")
        os.makedirs(self.refdir, exist_ok=True)
        self.results = os.path.join(args.results, name)
        self.calibration = list(range(FIRST_CALIBRATION_INSTANCE,
                                      FIRST_CALIBRATION_INSTANCE + args.calibration))
        self.state_path = os.path.join(self.work, "run.json")

    def identity(self):
        """What a resumed run must share with the run it continues: the
        machine (its times are compared with the earlier session's), the
        tools and sources (the baked builds in the work folder were made by
        them) and every setting that shapes the run."""
        def digest(paths):
            h = hashlib.sha256()
            for path in paths:
                with open(path, "rb") as f:
                    h.update(path.encode() + b"\0" + f.read())
            return h.hexdigest()[:16]
        sources = sorted(os.path.join(d, f) for d in (os.path.dirname(self.src),
                                                      os.path.join(BENCH, "common"))
                         for f in os.listdir(d) if os.path.isfile(os.path.join(d, f)))
        a = self.args
        return {"machine": {"cpu": cpu_name(), "cores": os.cpu_count()},
                "tools": {t: digest([self.tools[t]])
                          for t in ("approx-cc", "approx-tune", "approx-qos")},
                "sources": digest(sources),
                "settings": {"size": a.size, "max_evals": a.max_evals,
                             "time_budget": a.time_budget, "repetitions": a.repetitions,
                             "seed": a.seed, "calibration": a.calibration,
                             "calibration_jobs": a.calibration_jobs, "delta": a.delta,
                             "certify_candidates": a.certify_candidates,
                             "results": self.results}}

    def save_state(self):
        tmp = self.state_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.state, f, indent=2)
        os.replace(tmp, self.state_path)

    def open_state(self):
        """Starts the run's record in the work folder, or (--resume) checks
        that the earlier session's run is this one."""
        ident = self.identity()
        if not self.args.resume:
            self.state = {**ident, "finished": [], "sessions": 1}
            self.save_state()
            return
        if not os.path.exists(self.state_path):
            sys.exit(f"kernels.py: error: --resume: no earlier run of {self.name} in "
                     f"{os.path.dirname(self.work)} ({self.state_path} is missing)")
        with open(self.state_path) as f:
            self.state = json.load(f)
        differ = [k for k in ident if self.state.get(k) != ident[k]]
        if differ:
            sys.exit(f"kernels.py: error: --resume: the run in {self.work} differs in "
                     f"{', '.join(differ)}: " + "; ".join(
                         f"{k} was {json.dumps(self.state.get(k))}, now {json.dumps(ident[k])}"
                         for k in differ) + " (run without --resume to start again)")
        self.state["sessions"] += 1
        self.save_state()
        log(f"{self.name}: resuming (session {self.state['sessions']}; finished: "
            f"{', '.join(self.state['finished']) or 'nothing'})")

    def exe(self, tag):
        return os.path.join(self.work, tag)

    def kernel_time(self, exe, instance, output):
        return float(run([exe, "--size", self.args.size, "--instance",
                          str(instance), "--output", output]).strip())

    def qos(self, exact, approx):
        return float(run([self.tools["approx-qos"], *self.metric, exact, approx]))

    def build(self):
        cc = self.tools["approx-cc"]
        run([native_compiler(self.src), "-O3", self.src, "-o", self.exe("native"), "-lm"])
        # approx-cc's compile time: median of three builds of the exact program.
        self.compile_time = statistics.median(
            timed_compile([cc, "-O3", "--approx-exact", self.src, "-o", self.exe("exact")])
            for _ in range(3))
        run([cc, "-O3", "--approx-runtime-table", self.src, "-o", self.exe("table")])

    def references(self):
        size = self.args.size
        path = lambda i: os.path.join(self.refdir, f"{size}-{i}.out")
        instances = [0] + EVAL_INSTANCES + self.calibration
        # Each is written under a temporary name and renamed when complete,
        # so a resumed run keeps the ones an earlier session finished.
        kept = len(instances)
        if self.args.resume:
            instances = [i for i in instances if not os.path.exists(path(i))]
        kept -= len(instances)
        if instances:
            log(f"{self.name}: reference outputs of {len(instances)} inputs (the clang -O3 build"
                + (f"; {kept} kept from an earlier session)" if kept else ")"))
        # Only the outputs count here: --calibration-jobs of them at once.
        def reference(i):
            self.kernel_time(self.exe("native"), i, path(i) + ".tmp")
            os.replace(path(i) + ".tmp", path(i))
        with concurrent.futures.ThreadPoolExecutor(self.args.calibration_jobs) as pool:
            made = pool.map(reference, instances)
            for n, _ in enumerate(made, 1):
                if n % 25 == 0 and n < len(instances):
                    log(f"{self.name}: {n}/{len(instances)} reference outputs")
        out = os.path.join(self.work, "exact.out")
        self.kernel_time(self.exe("exact"), 0, out)
        with open(out) as a, open(os.path.join(self.refdir, f"{size}-0.out")) as b:
            self.exact_equal = a.read() == b.read()

    def exact_vs_clang(self):
        """Median kernel times of alternating runs on the tuning input."""
        out = os.path.join(self.work, "scratch.out")
        native, exact = [], []
        for _ in range(max(5, self.args.repetitions)):
            native.append(self.kernel_time(self.exe("native"), 0, out))
            exact.append(self.kernel_time(self.exe("exact"), 0, out))
        return statistics.median(native), statistics.median(exact)

    def tune(self, mode, budget, start=None):
        out = os.path.join(self.results, mode)
        if mode in self.state["finished"]:
            log(f"{self.name}: the {mode} run finished in an earlier session (kept)")
            with open(os.path.join(out, "summary.json")) as f:
                return json.load(f)
        shutil.rmtree(out, ignore_errors=True)
        db = os.path.join(self.work, f"{mode}.db")
        evaluate = " ".join([os.path.join(BENCH, "common", "evaluate.sh"),
                             self.tools["approx-qos"], self.refdir, self.exe("table"),
                             self.args.size, *self.metric])
        # The frontier is re-measured on the evaluation set as it deploys: each
        # point baked into the program, not read from the table at run time.
        baked = " ".join([os.path.join(BENCH, "common", "evaluate-baked.sh"),
                          self.tools["approx-cc"], self.src, os.path.join(self.work, "baked"),
                          self.tools["approx-qos"], self.refdir, self.args.size, *self.metric])
        # Each level's pick is certified on the calibration inputs (baked
        # too); the test inputs only report it.
        cmd = [self.tools["approx-tune"], "--space", self.src, "--eval", evaluate,
               "--mode", mode, "--qos-min", "0.91", "--max-evals", str(self.args.max_evals),
               "--seed", str(self.args.seed), "--repetitions", str(self.args.repetitions),
               "--holdout-eval", baked, f"--certify={self.args.delta}",
               "--calibration-eval", baked, "--out", out,
               "--db", db]
        # approx-tune continues the stored run: the search replays it, and
        # the calibration measurements it stored are not repeated.
        if self.args.resume and os.path.exists(db):
            cmd.append("--resume")
        if self.args.certify_candidates:
            cmd += ["--certify-candidates", str(self.args.certify_candidates)]
        if budget:
            cmd += ["--time-budget", f"{budget:.0f}"]
        if start:
            cmd += ["--start-from", start]
        log(f"{self.name}: tuning the {mode} space")
        # approx-tune's progress (the search's, then each re-measurement on the
        # evaluation and calibration sets: many minutes at paper size) and its
        # errors go to our stderr; its report goes to the files under --out.
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, APPROX_EVAL_INSTANCES=" ".join(map(str, EVAL_INSTANCES)),
                                APPROX_CALIBRATION_INSTANCES=" ".join(map(str, self.calibration)),
                                APPROX_CALIBRATION_JOBS=str(self.args.calibration_jobs)))
        self.state["finished"].append(mode)
        self.save_state()
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)

    def deploy(self, summary):
        """Bakes each level's pick (approx-tune's summary.json: certified on
        the calibration inputs) and times it against the exact build on the
        test inputs, which chose nothing."""
        results, cache = {}, {}
        for level in LEVELS:
            pick = summary["picks"][level]
            if pick["exact"]:
                results[level] = {"speedup": 1.0, "qos": 1.0, "config": "exact"}
                continue
            key = json.dumps(pick["config"], sort_keys=True)
            if key not in cache:
                cache[key] = self.measure_baked(pick["config"], len(cache))
            results[level] = cache[key]
        return results

    def measure_baked(self, config, index):
        path = os.path.join(self.work, f"deploy-{index}.json")
        with open(path, "w") as f:
            json.dump(config, f)
        exe = self.exe(f"deploy-{index}")
        run([self.tools["approx-cc"], "-O3", f"--approx-config={path}", self.src, "-o", exe])
        out = os.path.join(self.work, "deploy.out")
        exact_t, baked_t, qos = [], [], []
        for r in range(self.args.repetitions):
            te = tb = 0
            for i in EVAL_INSTANCES:
                te += self.kernel_time(self.exe("exact"), i, out)
                tb += self.kernel_time(exe, i, out)
                if r == 0:
                    qos.append(self.qos(os.path.join(self.refdir, f"{self.args.size}-{i}.out"), out))
            exact_t.append(te)
            baked_t.append(tb)
        return {"speedup": statistics.median(exact_t) / statistics.median(baked_t),
                "qos": statistics.mean(qos), "config": config}

    def run_all(self):
        t0 = time.perf_counter()
        self.open_state()
        log(f"{self.name}: building")
        self.build()
        self.references()
        native, exact = self.exact_vs_clang()
        # The dynamic search starts from the static frontier (a static
        # configuration is a decision tree with equal decisions) and refines it.
        # A time budget is the kernel's: a third for the static search, the
        # rest (and whatever the static one left) for the dynamic one.
        budget = self.args.time_budget
        modes = {"static": self.tune("static", budget / 3)}
        left = max(1, budget - modes["static"]["tuning_time_s"]) if budget else 0
        modes["dynamic"] = self.tune(
            "dynamic", left, start=os.path.join(self.results, "static", "pareto.csv"))
        log(f"{self.name}: timing deployment builds")
        deployment = {m: self.deploy(s) for m, s in modes.items()}
        summary = {
            "kernel": self.name, "size": self.args.size,
            "config_space": {m: s["config_space"] for m, s in modes.items()},
            "speedup": {m: {"tuning": {l: s["speedup"]["tuning"][l] for l in LEVELS},
                            "evaluation": {l: (s["speedup"]["evaluation"] or {}).get(l)
                                           for l in LEVELS}}
                        for m, s in modes.items()},
            "deployment": {m: {l: {"speedup": d[l]["speedup"], "qos": d[l]["qos"]}
                               for l in LEVELS} for m, d in deployment.items()},
            "certified": {m: {l: {k: s["certified"][l][k]
                                  for k in ("exact", "speedup", "loss_estimate", "loss_upper",
                                            "inputs", "delta")}
                              for l in LEVELS} for m, s in modes.items()},
            "exact_vs_clang_O3": native / exact,
            "exact_output_equals_clang": self.exact_equal,
            "kernel_time_s": {"clang_O3": native, "approx_cc_exact": exact},
            "compile_time_s": self.compile_time,
            "tuning_time_s": sum(s["tuning_time_s"] for s in modes.values()),
            "evaluations": sum(s["evaluations"] for s in modes.values()),
            "tuning": {m: {"time_s": s["tuning_time_s"], "evaluations": s["evaluations"],
                           "failed": s["failed"], "exhaustive": s["exhaustive"],
                           "stop_reason": s["stop_reason"]} for m, s in modes.items()},
            "frontier": {m: [{"qos": p["qos"], "speedup": p["speedup"],
                              "evaluation": p.get("evaluation")} for p in s["frontier"]]
                         for m, s in modes.items()},
            "paper": {"knobs": self.paper_knobs, "config_space": self.paper_space,
                      "frontier": self.paper_front},
            "settings": {"max_evals": self.args.max_evals, "time_budget_s": self.args.time_budget,
                         "repetitions": self.args.repetitions, "seed": self.args.seed,
                         "qos_min": 0.91, "held_out": "baked",
                         "test_instances": EVAL_INSTANCES, "calibration_instances": self.calibration,
                         "calibration_jobs": self.args.calibration_jobs,
                         "delta": self.args.delta, "picks": "certified",
                         "certify_candidates": self.args.certify_candidates or None},
            "wall_time_s": time.perf_counter() - t0,
            "sessions": self.state["sessions"],
        }
        write_results(self.results, summary, report)
        return summary


def pareto_params(columns):
    """The columns of approx-tune's pareto.csv that are configuration
    parameters: all but its measurements (time_s, qos, speedup and the
    held-out eval_* ones)."""
    return [c for c in columns
            if c not in ("time_s", "qos", "speedup") and not c.startswith("eval_")]


def meets_level(qos, level):
    """Whether `qos` is within QoS loss `level` (a percentage, as in LEVELS)."""
    return qos >= 1 - int(level) / 100 - 1e-12


def write_results(path, summary, render):
    """Writes summary.json and report.md (render(summary)) into `path`."""
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    with open(os.path.join(path, "report.md"), "w") as f:
        f.write(render(summary))


def fmt(x):
    return "-" if x is None else f"{x:.2f}x"


def peer(s):
    """The native compiler a kernel's exact build is compared with."""
    return "clang++" if s["kernel"] in SUITE else "clang"


def report(s):
    lines = [f"# {s['kernel']} ({s['size']} inputs)", ""]
    lines += ["| | static | dynamic |", "|---|---|---|",
              f"| configuration space | {s['config_space']['static']:.4g} | "
              f"{s['config_space']['dynamic']:.4g} |"]
    for kind, label in (("tuning", "tuning set (runtime table)"),
                        ("evaluation", "evaluation set (each point baked)")):
        for l in LEVELS:
            lines.append(f"| speedup at loss <= {l}%, {label} | "
                         f"{fmt(s['speedup']['static'][kind][l])} | "
                         f"{fmt(s['speedup']['dynamic'][kind][l])} |")
    cert = s.get("certified")
    for l in LEVELS if cert else []:
        def c(m):
            x = cert[m][l]
            return ("exact (none certified)" if x["exact"] else
                    f"{x['speedup']:.2f}x, loss {x['loss_estimate'] * 100:.1f}% "
                    f"<= {x['loss_upper'] * 100:.1f}%")
        lines.append(f"| certified at loss <= {l}% (calibration set, {cert['static'][l]['inputs']} "
                     f"inputs, {1 - cert['static'][l]['delta']:.0%} bound) | {c('static')} | "
                     f"{c('dynamic')} |")
    for l in LEVELS:
        st, dy = s["deployment"]["static"][l], s["deployment"]["dynamic"][l]
        lines.append(f"| speedup at loss <= {l}%, deployment build vs exact build "
                     f"(evaluation set; QoS) | {fmt(st['speedup'])} ({st['qos']:.4f}) | "
                     f"{fmt(dy['speedup'])} ({dy['qos']:.4f}) |")
    lines.append(f"| evaluations (failed) | {s['tuning']['static']['evaluations']} "
                 f"({s['tuning']['static']['failed']}) | {s['tuning']['dynamic']['evaluations']} "
                 f"({s['tuning']['dynamic']['failed']}) |")
    lines.append(f"| tuning time | {s['tuning']['static']['time_s']:.1f} s | "
                 f"{s['tuning']['dynamic']['time_s']:.1f} s |")
    lines += ["", f"- Exact approx-cc build vs {peer(s)} -O3 (kernel time, {peer(s)} / approx-cc): "
              f"{s['exact_vs_clang_O3']:.3f} ({s['kernel_time_s']['clang_O3']:.4f} s vs "
              f"{s['kernel_time_s']['approx_cc_exact']:.4f} s); outputs "
              f"{'identical' if s['exact_output_equals_clang'] else 'DIFFER'}.",
              f"- approx-cc compile time: {s['compile_time_s']:.2f} s.",
              (f"- Paper: {s['paper']['knobs']} knobs, configuration space "
               f"{s['paper']['config_space']:.3g}; frontier {s['paper']['frontier']}."
               if s["paper"]["knobs"] else f"- Published reference: {s['paper']['frontier']}."),
              "- Frontier plots: [static](static/plot.svg), [dynamic](dynamic/plot.svg); "
              "configurations: static/best_config.json, dynamic/best_config.json, "
              "and every frontier point in */pareto.csv.", ""]
    for m in ("dynamic", "static"):
        lines += [f"## {m.capitalize()} frontier", "",
                  "| QoS loss (tuning) | speedup (tuning) | QoS loss (evaluation) | "
                  "speedup (evaluation) |", "|---|---|---|---|"]
        for p in s["frontier"][m]:
            e = p["evaluation"] or {}
            ev = (f"{(1 - e['qos']) * 100:.2f}% | {e['speedup']:.2f}x" if "qos" in e
                  else "failed | -")
            lines.append(f"| {(1 - p['qos']) * 100:.2f}% | {p['speedup']:.2f}x | {ev} |")
        lines.append("")
    return "\n".join(lines)


def read_summaries(results_dir, names):
    """The summary.json of each of `names` that has one in `results_dir`."""
    out = []
    for name in names:
        path = os.path.join(results_dir, name, "summary.json")
        if os.path.exists(path):
            with open(path) as f:
                out.append(json.load(f))
    return out


def summary_md(results_dir):
    rows = read_summaries(results_dir, KERNELS)
    suite = read_summaries(results_dir, SUITE)
    out = ["# Kernel benchmarks: results next to the paper", "",
           "Speedups at QoS loss <= 3 / 6 / 9 % on the evaluation inputs. *Tuned*: the "
           "tuner's frontier re-measured on the evaluation set, each point baked with "
           "approx-cc (against the exact configuration baked the same way). *Deployed*: the "
           "configuration chosen at that level baked with approx-cc and timed against the "
           "exact approx-cc build. Reproduce with "
           "`benchmarks/kernels.py --size <size>`.", ""]
    if rows:  # the paper's kernels (a run of the suite alone has none)
        out += ["| kernel | size | space static / dynamic (paper) | static tuned | dynamic tuned | "
                "static deployed | dynamic deployed | paper frontier | exact vs clang -O3 | "
                "compile s | tuning s | evals |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    table_held_out = uncertified = False
    def three(d):
        return " / ".join("-" if d[l] is None else f"{d[l]:.2f}" for l in LEVELS)
    for s in rows:
        # Results written before the held-out frontier was baked.
        mark = "" if s["settings"].get("held_out") == "baked" else " †"
        table_held_out |= bool(mark)
        # Results written before each level's pick was certified.
        picked = "" if s["settings"].get("picks") == "certified" else " ‡"
        uncertified |= bool(picked)
        out.append(
            f"| {s['kernel']} | {s['size']} | {s['config_space']['static']:.3g} / "
            f"{s['config_space']['dynamic']:.3g} ({s['paper']['config_space']:.3g}) | "
            f"{three(s['speedup']['static']['evaluation'])}{mark} | "
            f"{three(s['speedup']['dynamic']['evaluation'])}{mark} | "
            f"{three({l: s['deployment']['static'][l]['speedup'] for l in LEVELS})}{picked} | "
            f"{three({l: s['deployment']['dynamic'][l]['speedup'] for l in LEVELS})}{picked} | "
            f"{s['paper']['frontier']} | {s['exact_vs_clang_O3']:.3f} | "
            f"{s['compile_time_s']:.2f} | {s['tuning_time_s']:.0f} | {s['evaluations']} |")
    if table_held_out:
        out += ["", "† Tuned before the held-out frontier was baked: these tuned columns are the "
                "runtime-table build against its exact configuration."]
    if uncertified:
        out += ["", "‡ Run before certification: each level's pick was the point fastest on the "
                "evaluation inputs while meeting the level there, and is reported on those same "
                "inputs (selection bias: on ten fresh paper-size instances kmeans's 12.2x at "
                "<= 3 % became 5.7x at 3.5 % loss, kb's 9.6-9.7x became 4.7-5.0x). `kernels.py` "
                "now deploys the pick certified on calibration instances; "
                "[certify/](certify/) measures how certification holds on unseen inputs."]
    if suite:
        out += ["", "## The approximate-computing suite (AxBench-style, C++)", "",
                f"Our own C++ programs after AxBench's, with its metrics (benchmarks/axbench); "
                f"measured as above. Reference: {PERFORATION_2011}.", "",
                "| program | metric | size | space static / dynamic | static tuned | "
                "dynamic tuned | static deployed | dynamic deployed | exact vs clang++ -O3 "
                "(outputs) | compile s | tuning s | evals |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in suite:
        out.append(
            f"| {s['kernel']} | {SUITE[s['kernel']][1][0]} | {s['size']} | "
            f"{s['config_space']['static']:.3g} / {s['config_space']['dynamic']:.3g} | "
            f"{three(s['speedup']['static']['evaluation'])} | "
            f"{three(s['speedup']['dynamic']['evaluation'])} | "
            f"{three({l: s['deployment']['static'][l]['speedup'] for l in LEVELS})} | "
            f"{three({l: s['deployment']['dynamic'][l]['speedup'] for l in LEVELS})} | "
            f"{s['exact_vs_clang_O3']:.3f} "
            f"({'identical' if s['exact_output_equals_clang'] else 'DIFFER'}) | "
            f"{s['compile_time_s']:.2f} | {s['tuning_time_s']:.0f} | {s['evaluations']} |")
    out.append("")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kernels", nargs="*", metavar="KERNEL",
                   help="any of " + ", ".join(KERNELS) + ", or of the approximate-computing "
                        "suite: " + ", ".join(SUITE) + " (default: all)")
    p.add_argument("--size", choices=["tiny", "small", "paper"], default="small")
    p.add_argument("--max-evals", type=int, default=100)
    p.add_argument("--time-budget", type=float, default=0,
                   help="tuning seconds per kernel: a third for the static search, the rest "
                        "for the dynamic one (default: no limit, --max-evals only)")
    p.add_argument("--repetitions", type=int, default=3,
                   help="runs per measurement (tuning, held-out and deployment timing)")
    p.add_argument("--seed", type=int, default=1)
    # 150: the betting bound needs 137 inputs to certify anything at <= 3 %
    # (docs/tuning.md#certification); 30 could not certify even 9 %.
    p.add_argument("--calibration", type=int, default=150, metavar="N",
                   help="calibration inputs each level's pick is certified on "
                        f"(instances {FIRST_CALIBRATION_INSTANCE}...; default %(default)s)")
    p.add_argument("--calibration-jobs", type=int, default=1, metavar="J",
                   help="calibration inputs (and reference outputs) run at once: certification "
                        "reads only their scores, so J = the number of cores cuts the longest "
                        "part of a paper-size run by up to that factor; the calibration times, which "
                        "choose among certified points, then share the machine (default 1)")
    p.add_argument("--delta", type=float, default=0.05,
                   help="certification's error level (default 0.05)")
    p.add_argument("--certify-candidates", type=int, default=0, metavar="N",
                   help="certify at most about N frontier points, chosen on the tuning set "
                        "(approx-tune --certify-candidates; default: every point)")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--results", default=os.path.join(BENCH, "results"))
    p.add_argument("--work", metavar="DIR",
                   help="keep the builds, references and results stores (<kernel>/<mode>.db) "
                        "in DIR (default: a temporary directory, removed at the end)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run an earlier session left in --work (stopped or "
                        "interrupted) on the same machine, tools, sources and settings: "
                        "finished modes and reference outputs are kept, approx-tune --resume "
                        "continues the unfinished mode")
    args = p.parse_args()
    args.results = os.path.abspath(args.results)
    if args.max_evals < 1 or args.repetitions < 1 or args.time_budget < 0:
        p.error("--max-evals and --repetitions must be at least 1, --time-budget not negative")
    if args.resume and not args.work:
        p.error("--resume needs --work DIR (the folder of the run it continues)")
    if args.certify_candidates < 0:
        p.error("--certify-candidates must not be negative")
    if args.calibration < 1 or args.calibration_jobs < 1 or not 0 < args.delta < 1:
        p.error("--calibration and --calibration-jobs must be at least 1, --delta within (0, 1)")
    for k in args.kernels:
        if k not in KERNELS and k not in SUITE:
            p.error(f"unknown kernel '{k}' (choose from {', '.join([*KERNELS, *SUITE])})")
    bindir = os.path.join(os.path.abspath(args.build), "bin")
    tools = {t: os.path.join(bindir, t) for t in ("approx-cc", "approx-tune", "approx-qos")}
    tools["clang"] = CLANG
    for t, path in tools.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"kernels.py: error: {t} not found at {path} (build first: scripts/build.sh)")
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="approx-kernels-")
    try:
        for name in args.kernels or [*KERNELS, *SUITE]:
            s = Kernel(name, args, tools, work).run_all()
            log(f"{name}: done in {s['wall_time_s']:.0f} s")
            with open(os.path.join(args.results, name, "report.md")) as f:
                print(f.read())
        with open(os.path.join(args.results, "summary.md"), "w") as f:
            f.write(summary_md(args.results))
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
