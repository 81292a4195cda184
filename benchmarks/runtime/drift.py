#!/usr/bin/env python3
"""The drift monitor on a real question stream (docs/runtime.md, issue 40).

rag_bm25 (benchmarks/compound), its runtime-table build with the instruct
models, deployed at the pick issue 38 certified at --level (its
summary.json), answers four sets of real questions at that pick and at the
exact configuration: the NQ-open validation split (the calibration set the
pick was certified on), the NQ-open evaluation split (held out), and three
shifts to SQuAD v1.1 dev questions (crowd-written reading-comprehension
questions about the SQuAD paragraphs, which are among the distractors of
the same passage collection; corpus.squad_questions): --squad questions of
every kind, --explanatory why and how questions, whose answers are longer
than NQ-open's factoids, and --long questions whose every gold answer has
at least --min-answer-words words (a shift the pick, which cuts answers
short, is most exposed to).

A unit's loss is what a shadow run can measure without gold answers: the
disagreement of the pick's answer with the exact configuration's, by
default 0/1 (--loss differ: whether the answers differ after SQuAD's
normalisation, which bounds the accuracy lost from above), or 1 - token F1
(--loss f1, which a truncated answer barely moves; drift.json stores it per
question either way). The monitor's level (`max_loss`) is the (1 -
--delta) upper confidence bound of the mean loss on the validation split,
as certification bounds a pick's loss (approx_runtime.loss_upper_bound).

The runtime controller (approx_controller.h, through approx_runtime) then
replays --streams seeded streams of --units questions: the first half drawn
from the evaluation split, the second from one of the shifted sets (each
unit drawn with replacement, its loss the question's measured one), on a
two-point frontier (the pick, the exact configuration; their times per
question as the deployment measured them, uncached) with a goal only the
pick meets, so the controller sits on the pick until the monitor gives it
up. Per shadow fraction: the streams that
raise an alarm before the shift (false alarms), the units from the shift to
the first alarm, and the monitor's overhead (the shadow runs' time over the
stream's). The same on unshifted streams (evaluation questions only).

Writes drift.json and the `drift` entry of summary.json in --out. With
--memo, the LLM calls go through that memoisation directory (tuning's):
calls already made replay, so a rerun costs minutes, not hours. With
--reuse, the per-question losses a previous run stored in its drift.json
(for the same pick, QA models and set sizes) are taken instead of answering
those sets again.

With --screen, the monitor also runs with screening (approx_controller.h,
goal.screen): the pick's only approximation is its answer cap, so an answer
that ended before the cap (greedy decoding stopped at a newline or an end
token) is the exact configuration's, a free and sound check. The pick
answers the sets again with --trace, whose `capped` field says which
answers reached the cap; a unit whose answer did not is cleared (loss 0, no
shadow run), and --screen's fractions of the others are shadowed. Every
unit is then an observation of the test. --screen-sets limits the second
run to some sets; the units of the others are all taken as uncleared (the
detection is the same, as a cleared unit and a shadowed lossless one both
observe a loss of 0: only the shadow runs' cost is overstated). The run
checks the premise on the measured losses (an answer that differs from the
exact one must be capped) and reports the shadow runs' cost as before.
drift.json keeps which answers were capped, and --reuse takes them too.

With --horizon N, every row is replayed again with the monitor as a change
detector (goal.drift_horizon: false alarms bounded by --delta within N
units; the monitor counts observations, so a row shadowing a fraction f of
the units is given f N of them, a screening row N)."""
import argparse
import atexit
import json
import os
import random
import re
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
from collections import Counter

from common import RESULTS, goal_seconds, rag_table, repo, run, tools, update_summary, write_json

sys.path.insert(0, os.path.join(repo, "benchmarks", "compound"))
import corpus  # noqa: E402
import qa_models  # noqa: E402
from compound import env_paths, read_trace  # noqa: E402

sys.path.insert(0, os.path.join(repo, "python"))
COMPOUND = os.path.join(repo, "benchmarks", "results", "compound", "rag_bm25", "summary.json")
THRESHOLD = re.compile(r"_threshold_\d+$")
PUNCTUATION = set(string.punctuation)
# The shifted question sets, in the order of the tables.
SHIFTS = {"squad": "every kind", "explanatory": "why/how", "long": "long answers"}
# What the monitor is told a shadowed unit lost, from the answers' 1 - F1:
# (its name in the report, its description in summary.json, the function).
UNIT_LOSSES = {
    "f1": ("1 - F1", "1 - token F1 of the pick's answer against the exact configuration's",
           lambda x: x),
    "differ": ("0/1, whether the answer differs", "1 when the pick's answer differs from the "
               "exact configuration's (token F1 below 1), else 0", lambda x: float(x > 0))}


def normalize(text):
    """SQuAD's answer normalisation: lower case, no punctuation, no
    articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in PUNCTUATION)
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


def disagreement(answer, reference):
    """1 - token F1 of `answer` against `reference`: 0 when they agree."""
    a, r = normalize(answer).split(), normalize(reference).split()
    if not a or not r:
        return 0.0 if a == r else 1.0
    common = sum((Counter(a) & Counter(r)).values())
    if not common:
        return 1.0
    p, q = common / len(a), common / len(r)
    return 1 - 2 * p * q / (p + q)


def count_lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(repo, "build"))
    ap.add_argument("--compound", default=COMPOUND,
                    help="the compound benchmark's summary.json whose certified pick is "
                    "deployed (default: issue 38's rag_bm25 run)")
    ap.add_argument("--mode", choices=["static", "dynamic"], default="dynamic")
    ap.add_argument("--level", default="9", help="the certified loss level, in %% (3, 6, 9)")
    ap.add_argument("--corpus", nargs=3, type=int, default=[150, 500, 500],
                    metavar=("TUNING", "VALIDATION", "EVALUATION"),
                    help="the compound benchmark's splits (default: issue 38's, 150 500 500)")
    ap.add_argument("--squad", type=int, default=100,
                    help="SQuAD questions of every kind (default 100)")
    ap.add_argument("--explanatory", type=int, default=150,
                    help="SQuAD why and how questions (default 150)")
    ap.add_argument("--long", type=int, default=150,
                    help="SQuAD questions with long gold answers (default 150)")
    ap.add_argument("--min-answer-words", type=int, default=8,
                    help="the words of a long question's shortest gold answer (default 8)")
    ap.add_argument("--reuse", metavar="DRIFT_JSON",
                    help="take the losses of the sets this earlier drift.json measured for "
                    "the same pick, QA models and set sizes")
    ap.add_argument("--streams", type=int, default=400)
    ap.add_argument("--units", type=int, default=2000, help="units per stream; the shift at "
                    "half (default 2000)")
    ap.add_argument("--shadow", type=float, nargs="+", default=[0.02, 0.05, 0.1, 0.2],
                    help="shadow fractions (the first of them at least 0.05 is the summary's)")
    ap.add_argument("--delta", type=float, default=0.05,
                    help="the level's confidence and the monitor's false-alarm bound")
    ap.add_argument("--qa-models", choices=sorted(qa_models.SETS),
                    help="the QA models (default: those the pick was certified with)")
    ap.add_argument("--loss", choices=sorted(UNIT_LOSSES), default="differ",
                    help="a shadowed unit's loss: differ (0/1, default) or f1 (1 - token F1)")
    ap.add_argument("--max-loss", type=float,
                    help="the monitor's level (default: the validation split's bound)")
    ap.add_argument("--screen", type=float, nargs="*", metavar="FRACTION",
                    help="also replay with screening, shadowing these fractions of the "
                    "uncleared units (no fractions: 1 0.5 0.25)")
    ap.add_argument("--screen-sets", nargs="+", choices=["evaluation", *SHIFTS],
                    default=["evaluation", *SHIFTS],
                    help="the sets the pick answers again for screening (default: all four)")
    ap.add_argument("--horizon", type=int, metavar="N",
                    help="also replay every row with the monitor as a change detector whose "
                    "false alarms are bounded within N units (default: --units)")
    ap.add_argument("--no-horizon", dest="horizon", action="store_const", const=0,
                    help="no change-detector rows")
    ap.add_argument("--memo", help="LLM memoisation directory (APPROX_LLM_CACHE)")
    ap.add_argument("--out", default=RESULTS)
    a = ap.parse_args()
    if a.screen == []:
        a.screen = [1.0, 0.5, 0.25]
    if a.horizon is None:
        a.horizon = a.units
    if (a.units < 2 or a.streams < 1 or a.horizon < 0
            or not all(0 < f <= 1 for f in a.shadow + (a.screen or []))):
        sys.exit("error: --units >= 2, --streams >= 1, --horizon >= 0, shadow fractions in (0, 1]")
    from approx_runtime import Controller, loss_upper_bound

    with open(a.compound) as f:
        summary = json.load(f)
    deployed = summary["deployment"][a.mode].get(a.level)
    if not deployed:
        sys.exit(f"error: {a.compound}: no certified {a.mode} pick at level {a.level} %")
    pick, qa = deployed["config"], a.qa_models or summary["qa_models"]["set"]
    # The deployment's timing (uncached, alternating with the exact build).
    exact_seconds = summary["exact_time_s"]["baseline"] / summary["timing_questions"]
    seconds = [exact_seconds / deployed["speedup"], exact_seconds]
    exact = {k: (v if THRESHOLD.search(k) else 0) for k, v in pick.items()}
    if pick == exact:
        sys.exit(f"error: the {a.mode} pick at {a.level} % is the exact configuration: "
                 "nothing to monitor")

    cc, qos = tools(a.build)[1], os.path.join(a.build, "bin", "approx-qos")
    models, cache, _ = env_paths()
    data = corpus.folder(cache, *a.corpus)
    tmp = tempfile.mkdtemp(prefix="approx-drift-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    exe = rag_table(cc, a.build, tmp)
    sets = {"validation": os.path.join(data, "questions-validation.tsv"),
            "evaluation": os.path.join(data, "questions-evaluation.tsv")}
    for name, n in (("squad", a.squad), ("explanatory", a.explanatory), ("long", a.long)):
        sets[name] = os.path.join(tmp, f"questions-{name}.tsv")
        with open(sets[name], "w", encoding="utf-8") as f:
            f.writelines(line + "\n" for line in corpus.squad_questions(
                corpus.DEFAULT_DATA, n, explanatory=name == "explanatory",
                min_answer_words=a.min_answer_words if name == "long" else 0))
    deployment = f"{a.mode} pick at {a.level} %"
    earlier = {}
    if a.reuse:
        with open(a.reuse) as f:
            old = json.load(f)
        if old.get("deployed") != deployment or old.get("qa_models") != qa:
            sys.exit(f"error: {a.reuse}: measured the {old.get('deployed')} on "
                     f"{old.get('qa_models')} models, not the {deployment} on {qa}")
        earlier = {name: dict(old["sets"][name], losses=old["losses"][name])
                   for name in old.get("losses", {}) if name in old.get("sets", {})}
        earlier_capped = {name: (flags, old["screening"]["sets"][name])
                          for name, flags in old.get("capped", {}).items()}

    def answer(name, config, trace=None):
        """The system's answers to set `name` at `config` and their
        accuracy against the gold answers (with `trace`, the run's --trace
        file there)."""
        cfg = os.path.join(tmp, "config.json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        out = os.path.join(tmp, "answers.txt")
        env = {k: v for k, v in os.environ.items() if k != "APPROX_LLM_CACHE"}
        env["APPROX_CONFIG"] = cfg
        if a.memo:
            env["APPROX_LLM_CACHE"] = a.memo
        cmd = [exe, "--passages", os.path.join(data, "passages.tsv"), "--questions",
               sets[name], "--models", models, *qa_models.qa_arg(qa), "--output", out,
               *(["--trace", trace] if trace else [])]
        print(f"drift: {name} questions at the {'exact' if config is exact else 'pick'} "
              "configuration", file=sys.stderr, flush=True)
        status = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode
        if status != 0:
            sys.exit(f"error: {os.path.basename(exe)} failed on the {name} questions (exit "
                     f"status {status}; its message is above)")
        with open(out, encoding="utf-8") as f:
            answers = f.read().split("\n")[:-1]
        n = count_lines(sets[name])
        if len(answers) != n:
            sys.exit(f"error: {exe} wrote {len(answers)} answers for {n} questions")
        accuracy = float(run([qos, "nq-accuracy", out, sets[name]]))
        return answers, accuracy

    measured = {}
    for name in sets:
        if name in earlier and earlier[name]["questions"] == count_lines(sets[name]):
            print(f"drift: {name} questions: the losses measured in {a.reuse}", file=sys.stderr)
            measured[name] = earlier[name]
            continue
        (pa, pacc), (ea, eacc) = answer(name, pick), answer(name, exact)
        losses = [disagreement(x, y) for x, y in zip(pa, ea)]
        measured[name] = {"questions": len(losses), "losses": losses,
                          "mean_loss": statistics.fmean(losses),
                          "disagree": sum(1 for x in losses if x > 0) / len(losses),
                          "pick_accuracy": pacc, "exact_accuracy": eacc,
                          "relative_accuracy": pacc / eacc if eacc else None}
    # Screening: which of the pick's answers reached its cap (the trace of
    # a second run of the pick), and the premise checked on the losses.
    capped, screening = {}, {}
    for name in (a.screen_sets if a.screen else []):
        losses = measured[name]["losses"]
        if a.reuse and name in earlier_capped and len(earlier_capped[name][0]) == len(losses):
            print(f"drift: {name} questions: the capped answers traced in {a.reuse}",
                  file=sys.stderr)
            capped[name] = [bool(c) for c in earlier_capped[name][0]]
            screening[name] = earlier_capped[name][1]
            continue
        trace = os.path.join(tmp, f"{name}.trace")
        _, accuracy = answer(name, pick, trace)
        capped[name] = [kv["capped"] == "1" for kv, _ in read_trace(trace)]
        if len(capped[name]) != len(losses):
            sys.exit(f"error: the trace of the {name} questions has {len(capped[name])} lines "
                     f"for {len(losses)} questions")
        screening[name] = {
            "capped": sum(capped[name]) / len(losses),
            "unsound": sum(1 for x, c in zip(losses, capped[name]) if x > 0 and not c),
            "pick_accuracy_rerun": accuracy,
            "same_accuracy": abs(accuracy - measured[name]["pick_accuracy"]) < 1e-9}
        if screening[name]["unsound"] or not screening[name]["same_accuracy"]:
            print(f"drift: warning: {name}: {screening[name]['unsound']} answers that differ "
                  f"from the exact ones ended before the cap; the rerun's accuracy "
                  f"{accuracy:.4f} against {measured[name]['pick_accuracy']:.4f}",
                  file=sys.stderr)
    said, described, unit_loss = UNIT_LOSSES[a.loss]
    unit = {name: [unit_loss(x) for x in m["losses"]] for name, m in measured.items()}
    val = unit["validation"]
    level = a.max_loss or loss_upper_bound([1.0] * len(val), [1 - x for x in val], a.delta)
    if not 0 < level < 1:
        sys.exit(f"error: the validation losses bound the loss by {level}: no level to monitor")

    # The two-point frontier, with the deployment's times per question.
    frontier = os.path.join(tmp, "frontier.csv")
    names = sorted(pick)
    with open(frontier, "w") as f:
        f.write("time_s,qos," + ",".join(names) + "\n")
        for s, q, config in ((seconds[0], 1 - level, pick), (seconds[1], 1, exact)):
            f.write(f"{s},{q}," + ",".join(str(config[n]) for n in names) + "\n")
    if seconds[0] >= seconds[1]:
        sys.exit(f"error: the pick ({deployed['speedup']:.3f}x) is not faster than the exact "
                 "configuration: the controller would not hold it")
    target = goal_seconds([{"relative_time": seconds[0] / seconds[1]}, {"relative_time": 1}], 0,
                          seconds[1])

    def replay(fraction, seed, shifted, shift, screen, horizon):
        """One stream, shifted to the set `shifted` at unit `shift`: (the
        unit of its first alarm or None, shadow seconds, stream seconds
        before the first alarm). With `screen`, the units whose answer
        ended before the cap are cleared; with `horizon`, the monitor is a
        change detector over that many units."""
        observations = horizon if screen else max(1, round(horizon * fraction))
        ctl = Controller(frontier, target, max_loss=level, shadow_fraction=fraction,
                         drift_delta=a.delta, shadow_seed=seed, screen=screen,
                         drift_horizon=observations if horizon else 0)
        rng = random.Random(seed)
        shadow = total = 0.0
        for u in range(a.units):
            name = "evaluation" if u < shift else shifted
            i = rng.randrange(len(unit[name]))
            loss = unit[name][i]
            p = ctl.point
            with ctl.unit(seconds=seconds[p]):
                pass
            total += seconds[p]
            if screen and name in capped and not capped[name][i]:
                ctl.clear()
            if ctl.shadow_due():
                shadow += seconds[1]
                with ctl.shadow() as s:
                    s.loss = loss
                if s.alarm:
                    return u, shadow, total
        return None, shadow, total

    half = a.units // 2

    def row(fraction, screen, horizon=0):
        """The streams at one shadow fraction: false alarms, overhead and
        detection per shift."""
        print(f"drift: {a.streams} streams at shadow fraction {fraction}"
              + (" of the uncleared units (screening)" if screen else "")
              + (f", a change detector over {horizon} units" if horizon else ""),
              file=sys.stderr, flush=True)
        seeds = range(1, a.streams + 1)
        unshifted = [replay(fraction, s, None, a.units, screen, horizon) for s in seeds]
        row = {"shadow_fraction": fraction,
               "false_alarm_rate": sum(1 for alarm, _, _ in unshifted
                                       if alarm is not None) / a.streams,
               "overhead": statistics.fmean(sh / t for _, sh, t in unshifted)}
        for name in SHIFTS:
            runs = [replay(fraction, s, name, half, screen, horizon) for s in seeds]
            early = sum(1 for alarm, _, _ in runs if alarm is not None and alarm < half)
            delays = sorted(alarm - half for alarm, _, _ in runs
                            if alarm is not None and alarm >= half)
            row[name] = {
                "alarms_before_shift": early / a.streams,
                "detected": len(delays), "undetected": a.streams - early - len(delays),
                "detection_units": statistics.median(delays) if delays else None,
                "detection_units_p90": delays[int(0.9 * (len(delays) - 1))] if delays else None}
        return row

    rows = [row(fraction, False) for fraction in a.shadow]
    screened = [row(fraction, True) for fraction in a.screen or []]
    detector = ([row(fraction, False, a.horizon) for fraction in a.shadow]
                + [dict(row(fraction, True, a.horizon), screened=True)
                   for fraction in a.screen or []]) if a.horizon else []
    headline = next((r for r in rows if r["shadow_fraction"] >= 0.05), rows[-1])
    drift = {
        "system": "rag_bm25", "qa_models": qa, "deployed": deployment,
        "shift": f"NQ-open evaluation questions -> {a.explanatory} SQuAD v1.1 "
        f"dev why/how questions (control: -> {a.squad} SQuAD dev questions of every kind; "
        f"severe: -> {a.long} SQuAD dev questions whose gold answers have at least "
        f"{a.min_answer_words} words)",
        "loss": described, "loss_kind": a.loss, "level": level,
        "level_source": "given" if a.max_loss else "validation bound", "delta": a.delta,
        "streams": a.streams, "units": a.units, "shift_unit": half,
        "seconds_per_question": {"pick": seconds[0], "exact": seconds[1]},
        "shadow_fraction": headline["shadow_fraction"],
        "detection_units": headline["explanatory"]["detection_units"],
        "detection_units_by_shift": {name: headline[name]["detection_units"]
                                     for name in SHIFTS},
        "false_alarm_rate": headline["false_alarm_rate"], "overhead": headline["overhead"],
        "rows": rows,
        "sets": {name: {k: v for k, v in m.items() if k != "losses"}
                 for name, m in measured.items()}}
    if screened:
        best = min(screened, key=lambda r: r["shadow_fraction"])
        drift["screening"] = {
            "check": "an answer that ended before the pick's cap of tokens is the exact "
            "configuration's (greedy decoding): such units are cleared, the others shadowed at "
            "the row's fraction, every unit observed",
            "sets": screening, "untraced": [n for n in ["evaluation", *SHIFTS] if n not in capped],
            "rows": screened,
            "shadow_fraction": best["shadow_fraction"],
            "detection_units": best["explanatory"]["detection_units"],
            "detection_units_by_shift": {name: best[name]["detection_units"] for name in SHIFTS},
            "false_alarm_rate": best["false_alarm_rate"], "overhead": best["overhead"]}
    if detector:
        drift["change_detector"] = {
            "horizon": a.horizon,
            "bound": f"false alarms within {a.horizon} units at most {a.delta} (the e-CUSUM "
            "of approx_controller.h: drift_horizon)",
            "rows": detector}
    source = "given" if a.max_loss else f"bound on the validation split, {len(val)} questions"
    write_json(os.path.join(a.out, "drift.json"),
               dict(drift, losses={name: m["losses"] for name, m in measured.items()},
                    capped={name: [int(c) for c in flags] for name, flags in capped.items()}))
    update_summary(a.out, "drift", drift)
    print(f"rag_bm25 ({qa}), the {a.mode} pick certified at {a.level} %; unit loss: {said} "
          f"against the exact answer; level {level:.3f} ({source})")
    for name, m in measured.items():
        print(f"  {name:<11} {m['questions']:>4} questions: mean loss {m['mean_loss']:.3f}, "
              f"answers differ {m['disagree']:.3f}; accuracy {m['pick_accuracy']:.3f} vs exact "
              f"{m['exact_accuracy']:.3f}")
    print(f"{a.streams} streams of {a.units} units, shifted at unit {half}; detection: units "
          "from the shift to the first alarm, median (90th percentile), undetected streams")
    print(f"{'shadow':>8}{'overhead':>10}{'false alarms':>14}  "
          + "".join(f"{'-> ' + label:<28}" for label in SHIFTS.values()))
    for r in (rows + [dict(r, screened=True) for r in screened]
              + [dict(r, detector=True) for r in detector]):
        cells = [f"{r[n]['detection_units']} ({r[n]['detection_units_p90']}), "
                 f"{r[n]['undetected']} undet." for n in SHIFTS]
        label = (f"{r['shadow_fraction']}{'s' if r.get('screened') else ''}"
                 f"{'c' if r.get('detector') else ''}")
        print(f"{label:>8}{r['overhead']:>10.3f}{r['false_alarm_rate']:>14.3f}  "
              + "".join(f"{c:<28}" for c in cells))
    if screened:
        print("  s: screening (the fraction of the uncleared units shadowed); answers at the cap: "
              + ", ".join(f"{n} {s['capped']:.3f} ({s['unsound']} differing below it)"
                          for n, s in screening.items())
              + "".join(f"; {n} not traced (every unit uncleared)"
                        for n in drift["screening"]["untraced"]))
    if detector:
        print(f"  c: the monitor as a change detector (false alarms within {a.horizon} units "
              f"at most {a.delta})")


if __name__ == "__main__":
    main()
