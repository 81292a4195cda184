#!/usr/bin/env python3
"""The compound AI systems of the ApproxMLIR paper, tuned end to end on real
NQ-open questions, real Wikipedia passages and real LLM weights.

For each system: builds the corpus and question splits (corpus.py), compiles
the annotated C program with approx-cc (exact build and runtime-table
build, linked with the LLM engine), measures the exact system's accuracy on
the tuning, validation and evaluation questions, tunes the static and the
dynamic space with approx-tune on the tuning questions (LLM calls memoised: a
replayed call is charged the time it took when measured), the dynamic search
starting from the static frontier, and certifies each QoS loss level's pick
on the validation questions (which the search never saw; approx-tune
--certify: its loss is at most the level with probability 0.95); then bakes
each level's certified pick (read from approx-tune's summary.json) into a
deployment build and measures it for real, uncached, on the evaluation
questions (or, with --timing N, on their first N; the accuracy still comes
from all of them) against the exact build measured in the same run (before
and after: the baseline is their mean). The QA models are the systems' own,
the instruct models with Qwen2.5-Coder 1.5B exact, or with --qa-models small
the small ones (qa_models.py). Writes
benchmarks/results/compound/<system>/ (report.md, summary.json, static/ and
dynamic/ with best_config.json, pareto.csv, plot.svg, speedup.txt).

Systems: rag_bm25 (LLM + RAG with bm25 retrieval), rag_kb (LLM + RAG with
dense retrieval: the passages embedded once per corpus by embed_corpus.py
with all-MiniLM-L6-v2, cached in the corpus folder) and llm_tools (LLM +
tools: triage, kernels, QA; a summary step is a knob).

usage: compound.py [SYSTEM ...] [--questions N] [--passages N] [--time-budget S]
                   [--max-evals N] [--seed S] [--validation-factor F | --validation N]
                   [--evaluation N] [--timing N] [--delta D]
                   [--qa-models instruct|small] [--memo DIR] [--work DIR [--resume]]
                   [--results DIR] [--report]
"""
import argparse
from dataclasses import dataclass
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from kernels import LEVELS, fmt, meets_level, read_summaries, run, write_results  # noqa: E402  (shared with the kernel benchmarks)
import corpus  # noqa: E402  (the splits and their folders are corpus.py's)
import qa_models  # noqa: E402  (the QA model sets)
from corpus import VALIDATION_FACTOR, split_sizes  # noqa: E402

@dataclass(frozen=True)
class Spec:
    """A compound system: its source, whether it reads the passage
    embeddings, whether it embeds questions with our compiled MiniLM
    (--embedder), its question files (<prefix>-<split>.tsv) and their metric
    (approx-qos), and the paper's knobs, configuration space and speedups
    at <= 3/6/9 % (Table 2, Fig. 7; None where the paper does not say)."""
    source: str
    embeddings: bool
    embedder: bool
    questions: str
    metric: str
    paper_knobs: Optional[int]
    paper_space: float
    paper_speedup: dict


SYSTEMS = {
    "rag_bm25": Spec("rag_bm25/rag_bm25.c", False, False, "questions", "nq-accuracy", 4, 9.6e8,
                     {"dynamic": [1.00, 1.23, 1.57], "static": [1.00, 1.00, 1.00]}),
    "rag_kb": Spec("rag_kb/rag_kb.c", True, True, "questions", "nq-accuracy", 4, 1.8e7,
                   {"dynamic": [2.64, 2.64, 3.04], "static": [1.69, 1.93, 2.27]}),
    "llm_tools": Spec("llm_tools/llm_tools.c", True, False, "tools", "graded-accuracy", None, 1.7e25,
                      {"dynamic": [1.09, 1.20, 1.20], "static": [1.09, 1.20, 1.20]}),
}
EMBEDDING_MODEL = "all-minilm-l6-v2"
PAPER_PASSAGES = 90011
# The QA models of each set in words (the report's comparison with the paper).
QA_MODELS_IN_WORDS = {
    "instruct": "Qwen2.5-Coder 1.5B Instruct (exact) and 0.5B Instruct, Gemma 3 270M and "
                "SmolLM2-135M",
    "small": "Gemma 3 270M (and SmolLM2-135M)"}


def log(msg):
    print(f"[compound] {time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def env_paths():
    """APPROX_MODELS, APPROX_CACHE_DIR and APPROX_VENV as scripts/paths.sh
    sets them."""
    out = subprocess.run(["bash", "-c", f"source {ROOT}/scripts/paths.sh && "
                          "echo $APPROX_MODELS && echo $APPROX_CACHE_DIR && echo $APPROX_VENV"],
                         check=True, capture_output=True, text=True).stdout.split("\n")
    return out[0], out[1], out[2]


def read_trace(path):
    """A compound system's --trace file (common/rag.h, rag_record): per
    question, its key=value fields and its answer (the last field)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            rows.append((dict(x.split("=", 1) for x in fields[1:-1] if "=" in x), fields[-1]))
    return rows


def count_knobs(approx_tune, src):
    """The knobs of a system as approx-tune reads them (its headers' too)."""
    out = run([approx_tune, "--space", src, "-I", os.path.join(ROOT, "runtime", "llm", "include"),
               "--list"])
    last = out.strip().splitlines()[-1]  # "N knobs, P parameters; space size: ..."
    return int(last.split()[0])


class System:
    def __init__(self, name, args, tools, work):
        self.name = name
        self.spec = spec = SYSTEMS[name]
        self.src = os.path.join(HERE, spec.source)
        # The system's own arguments besides the passages, questions, models
        # and output.
        self.extra = (["--embeddings", os.path.join(args.data, "passages.emb")]
                      if spec.embeddings else []) + qa_models.qa_arg(args.qa_models)
        if spec.embeddings:
            embed_corpus(args)
        if spec.embedder:
            self.extra += ["--embedder", build_embedder(args)]
        self.args, self.tools = args, tools
        self.work = os.path.join(work, name)
        self.refdir = os.path.join(self.work, "ref")
        os.makedirs(self.refdir, exist_ok=True)
        self.results = os.path.join(args.results, name)
        self.timing = None  # the timing subsample's file (run_all, once the questions exist)

    def exe(self, tag):
        return os.path.join(self.work, tag)

    def compile(self, out, *flags):
        start = time.perf_counter()
        lib = os.path.join(self.args.build, "lib")
        run([self.tools["approx-cc"], "-O3", *flags, self.src, "-I",
             os.path.join(ROOT, "runtime", "llm", "include"), f"-L{lib}", "-lapprox_llm",
             f"-Wl,-rpath,{lib}", "-o", out])
        return time.perf_counter() - start

    def timing_questions(self):
        """The file of the first --timing evaluation questions (in the work
        folder), or None when --timing is 0 or not smaller than the set. The
        evaluation set is a seeded draw, so its first N questions are a
        seeded subsample of it."""
        n = self.args.timing
        if not n or n >= self.args.sizes["evaluation"]:
            return None
        return corpus.first_questions(
            os.path.join(self.args.data, f"{self.spec.questions}-evaluation.tsv"), n,
            self.work, "timing.tsv")

    def run_system(self, exe, split, memo, output=None, config=None, questions=None,
                   detail=None):
        """Runs the system on a question split (a runtime-table build under
        `config`, a file, if given; `questions`, a file, instead of the
        split's questions; each question's score to `detail`, a file, if
        given); returns the time, the accuracy, the QoS (None before the
        exact accuracy of the split is known) and the system's summary
        line."""
        env = dict(os.environ)
        env.pop("APPROX_CONFIG", None)
        env.pop("APPROX_LLM_CACHE", None)
        if memo:
            env["APPROX_LLM_CACHE"] = self.args.memo
        if config:
            env["APPROX_CONFIG"] = config
        out = output or os.path.join(self.work, "answers.txt")
        questions = questions or os.path.join(self.args.data,
                                              f"{self.spec.questions}-{split}.tsv")
        r = subprocess.run([exe, "--passages", os.path.join(self.args.data, "passages.tsv"),
                            "--questions", questions, "--models", self.args.models,
                            "--output", out, *self.extra], capture_output=True, text=True,
                           env=env)
        if r.returncode != 0:
            sys.exit(f"compound.py: {exe} failed:\n{r.stderr}")
        score = [self.tools["approx-qos"], self.spec.metric, out, questions]
        acc = float(run(score + (["--detail", detail] if detail else [])))
        exact = self.exact_accuracy.get(split)
        qos = None if exact is None else float(run(score + [str(exact)]))
        return float(r.stdout.strip()), acc, qos, r.stderr.strip().splitlines()[-1]

    def evaluate(self, exe):
        """A build on the evaluation questions: its time uncached (on the
        first --timing of them when that is fewer), its accuracy and QoS on
        all of them (memoised when the time comes from the subsample: an
        answer depends only on its prompt), the timed run's summary line and
        each question's score."""
        detail = os.path.join(self.work, "evaluation.detail")
        if not self.timing:
            t, acc, qos, line = self.run_system(exe, "evaluation", False, detail=detail)
        else:
            t, _, _, line = self.run_system(exe, "evaluation", False, questions=self.timing)
            _, acc, qos, _ = self.run_system(exe, "evaluation", True, detail=detail)
        return t, acc, qos, line, read_detail(detail)

    def tool_questions(self):
        """The tools questions of the corpus's splits, their references the
        exact kernels' facts (llm_tools --facts of the exact build)."""
        gen = [sys.executable, os.path.join(HERE, "tool_questions.py"), "--data", self.args.data,
               "--seed", str(self.args.seed)]
        n = run(gen + ["--inputs-needed"]).strip()
        log(f"{self.name}: tool questions (facts of {n} inputs per kernel, exact build)")
        facts = os.path.join(self.work, "facts.tsv")
        with open(facts, "w") as f:
            subprocess.run([self.exe("exact"), "--facts", n], stdout=f, check=True)
        subprocess.run(gen + ["--facts", facts], check=True)

    def screen_questions(self):
        """The --screen questions (the first tuning ones) as the screen set
        evaluate.sh reads (REFDIR/screen.tsv), or None when screening is
        off."""
        if not self.args.screen:
            return None
        return corpus.first_questions(
            os.path.join(self.args.data, f"{self.spec.questions}-tuning.tsv"),
            self.args.screen, self.refdir, "screen.tsv")

    def references(self):
        """The exact system on the tuning and validation questions (filling
        the memo; and on the screen questions, replayed from it) and,
        uncached, on the evaluation questions: accuracies, the evaluation
        baseline's first time, the tuning timeout."""
        self.exact_accuracy, self.exact_run, self.exact_eval_times = {}, {}, []
        screen = self.screen_questions()
        splits = [("tuning", True)] + ([("screen", True)] if screen else []) + [
            ("validation", True), ("evaluation", False)]
        for split, memo in splits:
            log(f"{self.name}: exact system on the {split} questions"
                + (" (fills the memo)" if memo else " (uncached)" if not self.timing else
                   f" (timed uncached on the first {self.args.timing})"))
            if memo:
                t, acc, _, self.exact_run[split] = self.run_system(
                    self.exe("exact"), split, memo, questions=screen if split == "screen" else None)
            else:
                t, acc, self.exact_run[split], self.exact_scores = self.exact_evaluation()
            self.exact_accuracy[split] = acc
            with open(os.path.join(self.refdir, f"{split}.accuracy"), "w") as f:
                f.write(f"{acc}\n")
            if split == "tuning":
                # A configuration whose LLM calls all miss the memo runs about as
                # long as this uncached exact run; approx-tune's default timeout
                # (10x the memoised exact run) would cut it.
                self.timeout = 3 * t + 60
            elif split == "evaluation":
                self.exact_eval_times.append(t)
        log(f"{self.name}: exact accuracy tuning {self.exact_accuracy['tuning']:.3f}, "
            f"validation {self.exact_accuracy['validation']:.3f}, "
            f"evaluation {self.exact_accuracy['evaluation']:.3f} in "
            f"{self.exact_eval_times[0]:.1f} s")

    def exact_evaluation(self):
        """The exact build on the evaluation questions (evaluate): its time,
        accuracy, summary line and scores. A resumed run reuses the
        measurement an earlier session of it made (work/exact-evaluation.json)
        when the build, the questions and the QA models (their names and
        sizes: the files are sha256-checked when fetched) are the same: the
        baseline is then that session's timed run and the one after the
        deployment builds, as if the run had not stopped."""
        path = os.path.join(self.work, "exact-evaluation.json")
        key = hashlib.sha256()
        for f in [self.exe("exact"), self.timing or os.path.join(
                self.args.data, f"{self.spec.questions}-evaluation.tsv")]:
            key.update(bytes.fromhex(corpus.sha256(f)))
        for name in qa_models.models(self.args.qa_models):
            key.update(f"{name} {os.path.getsize(os.path.join(self.args.models, name))}\n"
                       .encode())
        key.update(json.dumps(self.extra).encode())
        key = key.hexdigest()
        if self.args.resume and os.path.isfile(path):
            with open(path) as f:
                stored = json.load(f)
            if stored.get("key") == key:
                log(f"{self.name}: the exact system's timed run of {stored['measured']} reused "
                    f"(--resume; same build, questions and models): {stored['time_s']:.1f} s")
                return stored["time_s"], stored["accuracy"], stored["run"], stored["scores"]
        t, acc, _, line, scores = self.evaluate(self.exe("exact"))
        corpus.atomic_write(path, [json.dumps(
            {"key": key, "measured": time.strftime("%Y-%m-%d %H:%M"), "time_s": t,
             "accuracy": acc, "run": line, "scores": scores})])
        return t, acc, line, scores

    def tune(self, mode, budget, start=None):
        out = os.path.join(self.results, mode)
        shutil.rmtree(out, ignore_errors=True)
        evaluate = " ".join([os.path.join(HERE, "evaluate.sh"), self.tools["approx-qos"],
                             self.spec.metric, self.spec.questions, self.args.data, self.args.models, self.refdir, self.exe("table"),
                             *self.extra])
        db = os.path.join(self.work, f"{mode}.db")
        cmd = [self.tools["approx-tune"], "--space", self.src, "-I",
               os.path.join(ROOT, "runtime", "llm", "include"), "--eval", evaluate,
               "--mode", mode, "--qos-min", "0.91", "--max-evals", str(self.args.max_evals),
               "--seed", str(self.args.seed), "--repetitions", "1", "--out", out,
               "--db", db, "--timeout", f"{self.timeout:.0f}",
               # Each level's pick certified on the validation questions
               # (evaluate.sh's calibration set), memoised like the search.
               f"--certify={self.args.delta}"]
        if self.args.screen:
            cmd += ["--screen-below", f"{self.args.screen_below:g}"]
        if budget:
            cmd += ["--time-budget", f"{budget:.0f}"]
        if start:
            cmd += ["--start-from", start]
        resumed = self.args.resume and os.path.isfile(db)
        if resumed:
            cmd += ["--resume"]
        log(f"{self.name}: tuning the {mode} space ({budget:.0f} s)"
            + (", continuing the run stored in " + db if resumed else ""))
        env = dict(os.environ, APPROX_LLM_CACHE=self.args.memo)
        subprocess.run(cmd, check=True, env=env)
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)

    def deploy(self, summaries):
        """Bakes each QoS-loss level's pick (certified on the validation
        questions: approx-tune's summary.json; choose_picks between the
        modes) and measures it uncached on the evaluation questions."""
        picks = choose_picks({m: level_picks(s) for m, s in summaries.items()},
                             self.args.dynamic_margin)
        measured = {}
        for key, point in picks.items():
            if point is None:
                continue
            cfg = config_key(point["config"])
            if cfg in measured:
                continue
            index = len(measured)
            path = os.path.join(self.work, f"deploy-{index}.json")
            with open(path, "w") as f:
                f.write(cfg)
            exe = self.exe(f"deploy-{index}")
            self.compile(exe, f"--approx-config={path}")
            log(f"{self.name}: deployment build {index} on the evaluation questions (uncached)")
            t, acc, qos, summary, scores = self.evaluate(exe)
            rel, interval = paired_relative(scores, self.exact_scores, self.args.seed)
            measured[cfg] = {"time_s": t, "accuracy": acc, "qos": qos, "summary": summary,
                             "relative_qos": rel, "relative_qos_interval": interval,
                             "config": point["config"]}
        log(f"{self.name}: exact system on the evaluation questions again (uncached)")
        self.exact_eval_times.append(
            self.run_system(self.exe("exact"), "evaluation", False, questions=self.timing)[0])
        base = statistics.mean(self.exact_eval_times)
        result = {}
        for (mode, level), point in picks.items():
            m = measured.get(config_key(point["config"])) if point else None
            if m is None:
                result.setdefault(mode, {})[level] = None
                continue
            result.setdefault(mode, {})[level] = {
                "speedup": base / m["time_s"], "time_s": m["time_s"],
                "pick": point.get("pick", mode),
                "qos": m["qos"], "relative_qos": m["relative_qos"],
                "relative_qos_interval": m["relative_qos_interval"],
                "accuracy": m["accuracy"], "tuning_speedup": point["tuning_speedup"],
                "tuning_qos": point["qos"],
                "validation_loss": point["loss_estimate"], "loss_upper": point["loss_upper"],
                "config": m["config"], "run": m["summary"]}
        return result, base

    def engine_bench(self):
        rows = []
        for name in qa_models.models(self.args.qa_models):
            out = run([self.tools["approx-llm"], "bench",
                       os.path.join(self.args.models, name), "--prompt-tokens", "600",
                       "--gen-tokens", "16"])
            kv = dict(w.split("=", 1) for w in out.split() if "=" in w)
            rows.append({"model": name.removesuffix(".gguf"), "prompt_tps": float(kv["prompt_tps"]),
                         "generate_tps": float(kv["generate_tps"])})
        return rows

    def run_all(self):
        t0 = time.perf_counter()
        log(f"{self.name}: building")
        compile_s = self.compile(self.exe("exact"), "--approx-exact")
        self.compile(self.exe("table"), "--approx-runtime-table")
        if self.spec.questions == "tools":
            self.tool_questions()
        self.timing = self.timing_questions()
        self.references()
        budget = self.args.time_budget
        modes = {"static": self.tune("static", budget / 3)}
        left = max(1, budget - modes["static"]["tuning_time_s"]) if budget else 0
        modes["dynamic"] = self.tune(
            "dynamic", left, start=os.path.join(self.results, "static", "pareto.csv"))
        log(f"{self.name}: deployment builds")
        deployment, base = self.deploy(modes)
        log(f"{self.name}: engine tokens/s")
        engine = self.engine_bench()
        summary = {
            "system": self.name,
            "questions": {s: self.args.sizes[s] for s in ("tuning", "validation", "evaluation")},
            "timing_questions": self.args.timing if self.timing else self.args.sizes["evaluation"],
            "qa_models": {"set": self.args.qa_models,
                          "files": qa_models.models(self.args.qa_models)},
            "passages": self.args.passage_count,
            "knobs": count_knobs(self.tools["approx-tune"], self.src),
            "exact_accuracy": self.exact_accuracy,
            "exact_time_s": {"evaluation": self.exact_eval_times, "baseline": base},
            "exact_run": self.exact_run,
            "config_space": {m: s["config_space"] for m, s in modes.items()},
            "speedup": {m: {"tuning": {l: s["speedup"]["tuning"][l] for l in LEVELS},
                            "evaluation": {l: (deployment[m][l] or {}).get("speedup")
                                           for l in LEVELS}}
                        for m, s in modes.items()},
            "deployment": deployment,
            "evaluation_within_bound": within_bound(deployment),
            "compile_time_s": compile_s,
            "tuning_time_s": sum(s["tuning_time_s"] for s in modes.values()),
            "evaluations": sum(s["evaluations"] for s in modes.values()),
            "tuning": {m: {"time_s": s["tuning_time_s"], "evaluations": s["evaluations"],
                           "failed": s["failed"], "screened": s.get("screened", 0),
                           "stop_reason": s["stop_reason"]}
                       for m, s in modes.items()},
            "exact_dominated": {m: s.get("exact_dominated", []) for m, s in modes.items()},
            "frontier": {m: [{"qos": p["qos"], "speedup": p["speedup"]} for p in s["frontier"]]
                         for m, s in modes.items()},
            "engine": engine,
            "paper": {"knobs": self.spec.paper_knobs, "config_space": self.spec.paper_space,
                      "speedup": self.spec.paper_speedup},
            "settings": {"max_evals": self.args.max_evals, "time_budget_s": budget,
                         "seed": self.args.seed, "qos_min": 0.91,
                         "dynamic_margin": self.args.dynamic_margin,
                         "picks": "certified", "delta": self.args.delta,
                         "shared_prefixes": True,
                         "validation_factor": self.args.validation_factor,
                         "passages_arg": self.args.passages,
                         "screen": ({"questions": self.args.screen,
                                     "below": self.args.screen_below}
                                    if self.args.screen else None)},
            "wall_time_s": time.perf_counter() - t0,
        }
        write_results(self.results, summary, report)
        return summary


# The run-to-run spread of a whole-system run on this machine, as a fraction
# (the exact system measured twice per run: 0.9-5.7 % in the runs so far).
DYNAMIC_MARGIN = 0.05

# Screening's QoS bound: 0.91 (the loosest level) less about two standard
# deviations of a relative accuracy measured on 50 questions at the exact
# systems' ~55 % accuracy (paired against exact, ~0.1), so that a candidate
# at a level's bound is ruled out on the screen set only rarely.
SCREEN_BELOW = 0.72


def read_detail(path):
    """Each question's score from an approx-qos --detail file (`q<line>
    <score>` lines), in question order."""
    with open(path, encoding="utf-8") as f:
        return [float(line.split()[1]) for line in f if line.strip()]


def paired_relative(scores, exact, seed, resamples=2000):
    """A build's accuracy relative to the exact build's on the same
    questions, uncapped (above 1: more accurate than exact), and its 95 %
    paired bootstrap interval (questions resampled together, seeded); the
    interval is None when the exact build scores 0 on every resample's
    questions."""
    if len(scores) != len(exact):
        sys.exit(f"compound.py: error: {len(scores)} scores against the exact build's "
                 f"{len(exact)}")
    total = sum(exact)
    rel = sum(scores) / total if total else None
    rng, n, ratios = random.Random(seed), len(scores), []
    for _ in range(resamples):
        pick = [rng.randrange(n) for _ in range(n)]
        e = sum(exact[i] for i in pick)
        if e:
            ratios.append(sum(scores[i] for i in pick) / e)
    if rel is None or len(ratios) < resamples // 2:
        return rel, None
    ratios.sort()
    return rel, [ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]]


def config_key(config):
    """A configuration as one canonical JSON text."""
    return json.dumps(config, sort_keys=True)


def level_picks(summary):
    """Per level, the pick approx-tune certified on the validation
    questions (its summary.json's picks and certified entries), or None
    where only the exact configuration is certified. `speedup` is the one
    the certification measured (validation questions), `tuning_speedup`
    the search's."""
    out = {}
    for level in LEVELS:
        pick, cert = summary["picks"][level], summary["certified"][level]
        out[level] = None if pick["exact"] else {
            "config": pick["config"], "speedup": cert["speedup"],
            "tuning_speedup": pick["tuning"]["speedup"], "qos": pick["tuning"]["qos"],
            "loss_estimate": cert["loss_estimate"], "loss_upper": cert["loss_upper"]}
    return out


def choose_picks(picks, margin):
    """Per (mode, level), the point a deployment build bakes, from each
    mode's certified picks ({mode: {level: point or None}}, level_picks).
    The static space lies in the dynamic one (a tree whose leaves agree),
    so a dynamic pick is deployed only when it beats the static pick of its
    level (both certified, their speedups measured on the validation
    questions) by more than `margin` (a fraction: the run-to-run spread of a
    whole-system run); otherwise the dynamic mode deploys the static pick
    (marked "pick": "static"). Chosen without the evaluation set."""
    out = {(mode, level): p for mode, levels in picks.items() for level, p in levels.items()}
    for level in LEVELS:
        static, dynamic = out.get(("static", level)), out.get(("dynamic", level))
        if static and (dynamic is None
                       or dynamic["speedup"] <= static["speedup"] * (1 + margin)):
            out[("dynamic", level)] = dict(static, pick="static")
    return out


def within_bound(deployment):
    """Per mode and level, the fastest deployment build whose QoS on the
    evaluation set meets the level's bound (1.0: none does, the exact build
    is the answer)."""
    out = {}
    for mode, levels in deployment.items():
        builds = [d for d in levels.values() if d]
        out[mode] = {l: max([d["speedup"] for d in builds if meets_level(d["qos"], l)]
                            + [1.0])
                     for l in LEVELS}
    return out


def time_split(run_line):
    """The phases' seconds from a system's summary line ("...; index 1.2 s,
    retrieval 0.3 s, generation 50.1 s (replayed ...")."""
    phases = run_line.split(";")[1].split("(")[0]
    out = {}
    for part in phases.split(","):
        words = part.split()
        if len(words) == 3 and words[2] == "s":
            out[words[0]] = float(words[1])
    return out


def model_seconds(run_line):
    """LLM seconds per QA model from a system's summary line ("...; LLM
    seconds by model a.gguf=1.2 b.gguf=0.0"); {} for runs before it was
    reported."""
    if "; LLM seconds by model" not in run_line:
        return {}
    words = run_line.split("; LLM seconds by model")[1].split()
    return {k.removesuffix(".gguf"): float(v) for k, v in (w.split("=", 1) for w in words)}


def where_time_goes(s):
    """The report's table of where each timed run's time goes: the
    phases and the LLM seconds per model, for the exact build and each
    deployment build (none before per-model seconds were reported)."""
    runs = [("exact", s["exact_run"]["evaluation"])]
    for mode in ("static", "dynamic"):
        for level in LEVELS:
            d = s["deployment"][mode][level]
            if d and not (mode == "dynamic" and d.get("pick") == "static"):
                runs.append((f"{mode} <= {level} %", d["run"]))
    if not model_seconds(runs[0][1]):
        return []
    lines = ["", f"Where the time goes ({timed_set(s)}, uncached):", "",
             "| build | phases | LLM seconds by model |", "|---|---|---|"]
    for name, line in runs:
        phases = ", ".join(f"{k} {v:.1f} s" for k, v in time_split(line).items())
        models = ", ".join(f"{k} {v:.1f} s" for k, v in model_seconds(line).items() if v > 0)
        lines.append(f"| {name} | {phases} | {models or '-'} |")
    return lines


def report(s):
    paper = s["paper"]["speedup"]
    bound = within_bound(s["deployment"])
    validated = "validation" in s["questions"]
    lines = [f"# {s['system']}: {s['questions']['tuning']} tuning / "
             + (f"{s['questions']['validation']} validation / " if validated else "")
             + f"{s['questions']['evaluation']} evaluation questions", "",
             f"Exact system: accuracy {s['exact_accuracy']['tuning']:.3f} (tuning), "
             + (f"{s['exact_accuracy']['validation']:.3f} (validation), " if validated else "")
             + f"{s['exact_accuracy']['evaluation']:.3f} (evaluation); "
             + timed_set(s) + f" in {s['exact_time_s']['baseline']:.1f} s uncached (mean of the "
             "runs before and after the deployment builds).", "",
             "| | static | dynamic | paper static | paper dynamic |", "|---|---|---|---|---|",
             f"| configuration space | {s['config_space']['static']:.4g} | "
             f"{s['config_space']['dynamic']:.4g} | - | {s['paper']['config_space']:.3g}"
             + (f" ({s['paper']['knobs']} knobs)" if s['paper']['knobs'] else "") + " |"]
    for i, l in enumerate(LEVELS):
        lines.append(f"| speedup at loss <= {l}%, tuning set (memoised) | "
                     f"{fmt(s['speedup']['static']['tuning'][l])} | "
                     f"{fmt(s['speedup']['dynamic']['tuning'][l])} | | |")
    for i, l in enumerate(LEVELS):
        cells = []
        for m in ("static", "dynamic"):
            d = s["deployment"][m][l]
            cells.append("-" if d is None else f"{d['speedup']:.2f}x (QoS {d['qos']:.3f}"
                         + relative_text(d)
                         + (f"; validation {d['validation_qos']:.3f}"
                            if d.get("validation_qos") is not None else "")
                         + (f"; certified on the validation set: loss {d['validation_loss']:.1%}"
                            f" <= {d['loss_upper']:.1%}"
                            if d.get("loss_upper") is not None else "")
                         + ("; the static pick" if m == "dynamic" and d.get("pick") == "static"
                            else "") + ")")
        lines.append(f"| speedup at loss <= {l}%, deployed, evaluation set (uncached) | "
                     f"{cells[0]} | {cells[1]} | {paper['static'][i]:.2f}x | "
                     f"{paper['dynamic'][i]:.2f}x |")
    for i, l in enumerate(LEVELS):
        lines.append(f"| **speedup at loss <= {l}% on the evaluation set** (fastest deployment "
                     f"build meeting the bound there; 1.00x: none did) | "
                     f"**{bound['static'][l]:.2f}x** | **{bound['dynamic'][l]:.2f}x** | "
                     f"{paper['static'][i]:.2f}x | {paper['dynamic'][i]:.2f}x |")
    def evals(m):
        t = s["tuning"][m]
        return (f"{t['evaluations']} ({t['failed']}"
                + (f", {t['screened']} screened out" if t.get("screened") else "") + ")")
    lines.append(f"| evaluations (failed) | {evals('static')} | {evals('dynamic')} | | |")
    lines.append(f"| tuning time | {s['tuning']['static']['time_s']:.0f} s | "
                 f"{s['tuning']['dynamic']['time_s']:.0f} s | | 12 h (both) |")
    if "exact_dominated" in s:
        notes = [n for m in ("static", "dynamic") for n in s["exact_dominated"][m]]
        lines += ["", "Exact configuration dominated (a frontier point more accurate than exact, "
                  "approx-tune's check): " + ("no" if not notes else "yes: " + "; ".join(notes))]
    margin = s["settings"].get("dynamic_margin")
    certified = s["settings"].get("picks") == "certified"
    lines += ["", ("Deployment picks are certified on the validation set, which the search "
                   "never saw (approx-tune --certify: the pick's loss relative to the exact "
                   f"system is at most the level with probability {1 - s['settings']['delta']:.0%};"
                   " '-': only the exact system is certified at that level)"
                   if certified else "Deployment picks are chosen on the tuning set"
              + (" (and must meet the level's bound on the validation set too, which the "
                 "search never saw: the fastest of at most "
                 f"{s['settings']['validation_tries']} points per level that does)"
                 if validated else ""))
              + " and measured on the "
              "evaluation set; a QoS below the level's bound there is the generalisation gap."
              + ("" if margin is None else
                 " The dynamic mode deploys its own pick only when it beats the static pick of "
                 f"the level on the tuning set by more than {margin:.0%}; otherwise the static "
                 "pick (a decision tree whose leaves agree), marked \"the static pick\"."),
              "", "## Engine on this machine", "",
              "| model | prompt tokens/s | generation tokens/s |", "|---|---|---|"]
    for e in s["engine"]:
        lines.append(f"| {e['model']} | {e['prompt_tps']:.0f} | {e['generate_tps']:.1f} |")
    split = time_split(s["exact_run"]["evaluation"])
    total = sum(split.values())
    lines += ["", f"Where the exact system's time goes ({timed_set(s)}): " + ", ".join(
        f"{k} {v:.1f} s ({100 * v / total:.1f} %)" for k, v in split.items()) + ".",
              *where_time_goes(s),
              "", f"Exact run ({timed_set(s)}): `{s['exact_run']['evaluation']}`", "",
              "Our setup against the paper's: "
              + QA_MODELS_IN_WORDS[s.get("qa_models", {}).get("set", "small")]
              + " on a 2-core CPU "
              f"instead of Gemma 3 1B/4B on a GPU; {s['passages']:,} passages instead of "
              f"{PAPER_PASSAGES:,}; {s['questions']['tuning']} tuning"
              + (f", {s['questions']['validation']} validation" if validated else "")
              + f" and {s['questions']['evaluation']} evaluation questions; "
              f"{s['tuning_time_s'] / 60:.0f} minutes of tuning instead of 12 hours; "
              f"{s['knobs']} knobs"
              + (f" instead of {s['paper']['knobs']}" if s['paper']['knobs'] else "") + ".", ""]
    for m in ("dynamic", "static"):
        lines += [f"## {m.capitalize()} frontier (tuning set)", "",
                  "| QoS loss | speedup |", "|---|---|"]
        for p in s["frontier"][m]:
            lines.append(f"| {(1 - p['qos']) * 100:.2f}% | {p['speedup']:.2f}x |")
        lines.append("")
    return "\n".join(lines)


def embed_corpus(args):
    """The corpus's passage embeddings (embed_corpus.py; cached in the corpus
    folder, so a second run returns at once)."""
    log(f"passage embeddings ({EMBEDDING_MODEL}; computed once per corpus)")
    subprocess.run([os.path.join(args.venv, "bin", "python"), os.path.join(HERE, "embed_corpus.py"),
                    "--data", args.data, "--model",
                    os.path.join(args.models, EMBEDDING_MODEL + ".gguf"),
                    "--approx-llm", os.path.join(args.build, "bin", "approx-llm"),
                    "--cache", os.path.join(args.cache, "embeddings")], check=True)


def build_embedder(args):
    """The query embedder's folder (python -m approx_ml.embedder: MiniLM
    compiled by our ML route, one library per build; cached, rebuilt when
    the model or approx-compile changes)."""
    out = os.path.join(args.cache, "embedder")
    log(f"query embedder ({EMBEDDING_MODEL} through our ML route; built once)")
    subprocess.run([os.path.join(args.venv, "bin", "python"), "-m", "approx_ml.embedder",
                    "--model", os.path.join(args.models, EMBEDDING_MODEL + ".hf"),
                    "--out", out], check=True,
                   env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
                            APPROX_BIN=os.path.join(args.build, "bin")))
    return out


# The paper's generalisation gap per system (tuning vs evaluation QoS loss,
# percentage points), in SYSTEMS' order.
PAPER_GAP = {"rag_bm25": 18.6, "rag_kb": 19.5, "llm_tools": 3.7}


def generalisation_gap(s):
    """Mean |QoS on the tuning set - QoS on the evaluation set| of the
    deployed picks, in percentage points (None without picks)."""
    gaps = [abs(d["tuning_qos"] - d["qos"]) * 100 for levels in s["deployment"].values()
            for d in levels.values() if d]
    return sum(gaps) / len(gaps) if gaps else None


def relative_text(d):
    """A deployment's uncapped accuracy relative to exact with its
    interval, in words ('' for runs before it was measured)."""
    if d.get("relative_qos") is None:
        return ""
    iv = d.get("relative_qos_interval")
    return (f"; relative accuracy {d['relative_qos']:.3f}"
            + (f" [{iv[0]:.3f}, {iv[1]:.3f}]" if iv else ""))


def timed_set(s):
    """The questions a run's times come from, in words."""
    n, total = s.get("timing_questions", s["questions"]["evaluation"]), s["questions"]["evaluation"]
    return "evaluation set" if n >= total else f"the first {n} evaluation questions (timed)"


def reproduce_command(s):
    st = s["settings"]
    q = s["questions"]
    factor, rest = divmod(q.get("validation", 0), q["tuning"])
    return (f"benchmarks/compound/compound.py {s['system']} --questions "
            f"{s['questions']['tuning']}"
            + (f" --passages {st['passages_arg']}" if st.get("passages_arg") else "")
            + f" --time-budget {st['time_budget_s']:.0f} --max-evals {st['max_evals']}"
            + f" --seed {st['seed']}"
            + (f" --dynamic-margin {st['dynamic_margin']:g}"
               if st.get("dynamic_margin", DYNAMIC_MARGIN) != DYNAMIC_MARGIN else "")
            + (f" --validation {q['validation']}" if rest
               else f" --validation-factor {factor}"
               if "validation" in q and factor != VALIDATION_FACTOR else "")
            + (f" --evaluation {q['evaluation']}" if q["evaluation"] != 5 * q["tuning"] else "")
            + (f" --delta {st['delta']:g}" if st.get("delta", 0.05) != 0.05 else "")
            + (f" --timing {s['timing_questions']}"
               if s.get("timing_questions", q["evaluation"]) < q["evaluation"] else "")
            # Runs from before issue 38 used the small models without saying so.
            + (f" --qa-models {s.get('qa_models', {}).get('set', 'small')}"
               if s.get("qa_models", {}).get("set", "small") != "instruct" else "")
            + (f" --screen {st['screen']['questions']}"
               + (f" --screen-below {st['screen']['below']:g}"
                  if st['screen']['below'] != SCREEN_BELOW else "")
               if st.get("screen") else ""))


def summary_md(results):
    """benchmarks/results/compound/summary.md: the systems side by side with
    the paper, from their summary.json."""
    runs = read_summaries(results, SYSTEMS)
    lines = ["# Compound AI systems: the three systems side by side with the paper", "",
             "Every speedup is measured uncached on the evaluation (test) set (disjoint from "
             "the tuning and validation sets; sizes in the table) with deployment builds (the configuration chosen on the tuning "
             "set, and confirmed on the validation set where the run had one, baked in by "
             "approx-cc), against the exact build measured in the same run; "
             "the fastest deployment build whose evaluation QoS meets the bound counts "
             "(1.00x: none did). Written by `benchmarks/compound/compound.py --summary` from "
             "each system's summary.json; `benchmarks/compound/reproduce.sh` reruns them.", "",
             "| | " + " | ".join(r["system"] for r in runs) + " |",
             "|---|" + "---|" * len(runs)]

    def row(label, cell):
        lines.append(f"| {label} | " + " | ".join(cell(r) for r in runs) + " |")

    row("questions (tuning / validation / evaluation)",
        lambda r: f"{r['questions']['tuning']} / {r['questions'].get('validation', '-')} / "
                  f"{r['questions']['evaluation']}")
    row("passages", lambda r: f"{r['passages']:,}")
    row("exact QA model", lambda r: r.get("qa_models", {}).get(
        "files", qa_models.SMALL)[0].removesuffix(".gguf"))
    row("knobs (paper)", lambda r: f"{r['knobs']} ({r['paper']['knobs'] or '-'})")
    row("configurations static / dynamic (paper)",
        lambda r: f"{r['config_space']['static']:.3g} / {r['config_space']['dynamic']:.3g} "
                  f"({r['paper']['config_space']:.2g})")
    row("exact accuracy tuning / validation / evaluation",
        lambda r: f"{r['exact_accuracy']['tuning']:.3f} / "
                  + (f"{r['exact_accuracy']['validation']:.3f}"
                     if "validation" in r["exact_accuracy"] else "-")
                  + f" / {r['exact_accuracy']['evaluation']:.3f}")
    row("tuning time (evaluations)",
        lambda r: f"{r['tuning_time_s'] / 60:.0f} min ({r['evaluations']})")
    for mode in ("static", "dynamic"):
        for i, l in enumerate(LEVELS):
            row(f"**{mode}, loss <= {l}%** (paper)",
                lambda r: f"**{r['evaluation_within_bound'][mode][l]:.2f}x** "
                          f"({r['paper']['speedup'][mode][i]:.2f}x)")
    row("generalisation gap, points (paper)",
        lambda r: ("-" if generalisation_gap(r) is None else f"{generalisation_gap(r):.1f}")
                  + f" ({PAPER_GAP[r['system']]})")
    lines += ["", "The generalisation gap is the mean absolute difference between a deployed "
              "pick's QoS on the tuning set and on the evaluation set, in percentage points "
              "(the paper's 18.6 / 19.5 / 3.7 are taken in the order bm25, kb, tools)."]
    older = [r["system"] for r in runs if not r["settings"].get("shared_prefixes")]
    if older:
        lines += ["", "Measured before the validation split and the engine's shared prompt "
                  "prefixes existed (picks chosen on the tuning set alone; every prompt "
                  "decoded whole, the exact baseline included): " + ", ".join(older)
                  + (". The commands below rerun them" if len(older) > 1
                     else ". The command below reruns it") + " with both."]
    lines += ["", "## Targets", ""]
    for r in runs:
        b = r["evaluation_within_bound"]
        paper9 = r["paper"]["speedup"]["dynamic"][2]
        best9 = max(b["static"]["9"], b["dynamic"]["9"])
        dyn_ge = all(b["dynamic"][l] >= b["static"][l] - 1e-9 for l in LEVELS)
        static_picks = [l for l in LEVELS
                        if (r["deployment"]["dynamic"][l] or {}).get("pick") == "static"]
        how = (" (the dynamic mode deploys the static pick at <= "
               + "/".join(static_picks) + " %)") if dyn_ge and static_picks else ""
        gap = generalisation_gap(r)
        unpicked = {m: [l for l in LEVELS if r["deployment"][m][l] is None]
                    for m in ("static", "dynamic")}
        none = " and ".join(f"{m} <= {'/'.join(ls)} %" for m, ls in unpicked.items() if ls)
        lines.append(
            f"- {r['system']}: {best9:.2f}x at <= 9 % against the paper's {paper9:.2f}x "
            f"({'met' if best9 >= paper9 else 'not met'}); dynamic >= static at every level: "
            f"{'yes' if dyn_ge else 'no'}{how}; gap "
            + ("-" if gap is None else f"{gap:.1f}") + f" points against {PAPER_GAP[r['system']]}"
            + f" ({'smaller' if gap is not None and gap < PAPER_GAP[r['system']] else 'not smaller'})"
            + (f"; nothing deployed (the exact build stands) for {none}: no frontier point met "
               "the level on the tuning set"
               + (" and the validation set" if "validation" in r["questions"] else "")
               if none else "") + ".")
    lines += ["", "## Frontiers (tuning set)", ""]
    for r in runs:
        lines.append(f"- {r['system']}: [dynamic]({r['system']}/dynamic/plot.svg), "
                     f"[static]({r['system']}/static/plot.svg); the full report: "
                     f"[{r['system']}/report.md]({r['system']}/report.md)")
    lines += ["", "## Reproduce", "", "```"]
    lines += [reproduce_command(r) for r in runs]
    lines += ["benchmarks/compound/compound.py --summary", "```", ""]
    path = os.path.join(results, "summary.md")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines))
    os.replace(path + ".tmp", path)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("systems", nargs="*", metavar="SYSTEM",
                   help="any of " + ", ".join(SYSTEMS) + " (default: all)")
    p.add_argument("--questions", type=int, default=50,
                   help="tuning questions; the evaluation set is 5x as many (default 50)")
    p.add_argument("--passages", type=int, default=0,
                   help="a smaller passage collection: the questions' gold passages and a "
                        "seeded sample of the rest, N in all (default: all 34,923)")
    p.add_argument("--max-evals", type=int, default=200)
    p.add_argument("--time-budget", type=float, default=1800,
                   help="tuning seconds per system: a third static, the rest dynamic "
                        "(default 1800)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dynamic-margin", type=float, default=DYNAMIC_MARGIN,
                   help="a decision-tree pick is deployed only when it beats the static pick "
                        "of its level on the tuning set by more than this fraction; otherwise "
                        f"the dynamic mode deploys the static pick (default {DYNAMIC_MARGIN})")
    p.add_argument("--validation-factor", type=int, default=VALIDATION_FACTOR,
                   help="validation questions per tuning question: each level's pick is "
                        "certified on them (default %(default)s)")
    p.add_argument("--validation", type=int, default=0,
                   help="validation (calibration) questions, instead of --validation-factor")
    p.add_argument("--evaluation", type=int, default=0,
                   help="evaluation (test) questions (default 5x --questions)")
    p.add_argument("--delta", type=float, default=0.05,
                   help="certification's error level: each level's pick has loss at most the "
                        "level with probability 1 - delta on the validation questions' "
                        "distribution (default 0.05)")
    p.add_argument("--timing", type=int, default=0,
                   help="time the builds uncached on the first N evaluation questions only "
                        "(a seeded subsample; their accuracy still comes from all of them, "
                        "with memoised LLM calls); default 0: all of them")
    p.add_argument("--screen", type=int, default=0, metavar="N",
                   help="screening: approx-tune measures each candidate on the first N tuning "
                        "questions first, and on all of them only when its QoS there is at "
                        "least --screen-below (default 0: off)")
    p.add_argument("--screen-below", type=float, default=SCREEN_BELOW,
                   help="screening's QoS bound, below 0.91 (default %(default)s)")
    p.add_argument("--qa-models", choices=sorted(qa_models.SETS), default="instruct",
                   help="the QA models (benchmarks/compound/qa_models.py): the systems' own, "
                        "the instruct models (scripts/fetch-instruct-models.sh), or the small "
                        "ones the test command fetches (default %(default)s)")
    p.add_argument("--memo", help="memo folder of LLM calls (default: a fresh one per run)")
    p.add_argument("--work", help="work folder (builds, tuning stores, answers), kept after the "
                                  "run (default: a temporary one, removed)")
    p.add_argument("--resume", action="store_true",
                   help="continue the tuning runs stored in --work's stores (a run cut short; "
                        "with the same --memo its LLM calls replay) and reuse the exact build's "
                        "timed evaluation run when the build, questions and models are the same")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--results", default=os.path.join(ROOT, "benchmarks", "results", "compound"))
    p.add_argument("--report", action="store_true",
                   help="only re-render each system's report.md from its summary.json")
    p.add_argument("--summary", action="store_true",
                   help="only write summary.md (the systems side by side) from their "
                        "summary.json")
    args = p.parse_args()
    if args.summary:
        print(summary_md(os.path.abspath(args.results)))
        return
    if args.report:
        for name in args.systems or list(SYSTEMS):
            path = os.path.join(os.path.abspath(args.results), name)
            with open(os.path.join(path, "summary.json")) as f:
                summary = json.load(f)
            summary["evaluation_within_bound"] = within_bound(summary["deployment"])
            write_results(path, summary, report)
        return
    if (args.questions < 1 or args.max_evals < 1 or args.validation_factor < 1
            or args.time_budget < 0 or args.passages < 0 or not 0 < args.delta < 1
            or args.validation < 0 or args.evaluation < 0 or args.timing < 0
            or (args.resume and not args.work) or not 0 <= args.screen <= args.questions
            or not 0 < args.screen_below < 0.91):
        p.error("--questions, --max-evals and --validation-factor must be at least 1, "
                "--time-budget, --passages, --validation, --evaluation and --timing not negative, "
                "--resume needs --work, "
                "--delta within (0, 1), --screen at most --questions, "
                "--screen-below within (0, 0.91)")
    args.sizes = split_sizes(0, args.questions, args.validation_factor, args.validation,
                             args.evaluation)
    for s in args.systems:
        if s not in SYSTEMS:
            p.error(f"unknown system '{s}' (choose from {', '.join(SYSTEMS)})")
    args.build = os.path.abspath(args.build)
    args.results = os.path.abspath(args.results)
    bindir = os.path.join(args.build, "bin")
    tools = {t: os.path.join(bindir, t)
             for t in ("approx-cc", "approx-tune", "approx-qos", "approx-llm")}
    for t, path in tools.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"compound.py: error: {t} not found at {path} (run scripts/build.sh)")
    args.models, args.cache, args.venv = env_paths()
    cache = args.cache
    for m in qa_models.models(args.qa_models) + [EMBEDDING_MODEL + ".gguf"]:
        if not os.path.isfile(os.path.join(args.models, m)):
            sys.exit(f"compound.py: error: model {m} not in {args.models} (run scripts/setup.sh "
                     "and scripts/models.sh" + (", and scripts/fetch-instruct-models.sh for the "
                     "instruct models" if args.qa_models == "instruct" else "") + ")")
    args.data = corpus.folder(cache, args.questions, args.sizes["validation"],
                              args.sizes["evaluation"], args.seed, args.passages)
    with open(os.path.join(args.data, "corpus.json")) as f:
        args.passage_count = json.load(f)["passages"]
    if args.work:
        work = os.path.abspath(args.work)
        os.makedirs(work, exist_ok=True)
    else:
        work = tempfile.mkdtemp(prefix="approx-compound-")
    args.memo = os.path.abspath(args.memo) if args.memo else os.path.join(work, "memo")
    try:
        for name in args.systems or list(SYSTEMS):
            s = System(name, args, tools, work).run_all()
            log(f"{name}: done in {s['wall_time_s']:.0f} s")
            with open(os.path.join(args.results, name, "report.md")) as f:
                print(f.read())
        log(f"wrote {summary_md(args.results)}")
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
