"""Tuning from Python: `tune`, `ApproxTunerInterface` and
`create_tuner_arg_parser`, over the C++ search (approx::tune, the engine of
approx-tune) with a Python function as the evaluator.

    result = ar.tune(mlir_source, evaluate, accuracy_threshold=0.95,
                     time_budget=600)
    result["best_config"], result["best_mlir"], result["best_time"],
    result["best_accuracy"]

`evaluate(config) -> (time_ms, accuracy)` is called with a dict of
parameter values; accuracy is in [0, 1] and the search minimises time
subject to accuracy >= accuracy_threshold. An evaluator may also return
per-input scores, `(time_ms, accuracy, scores)` with scores a dict
{input id: score in [0, 1]} or a sequence of scores. Every evaluation is
kept in the results store `database` (SQLite, the schema of approx-tune's
store); `resume=True` continues the latest run of the same space there.
Each evaluation has a timeout (`timeout=` seconds, else derived from the
first measurement as approx-tune's: an hour for it, then 10x its wall time
+ 10 s); one without a result by then counts as timed out (its thread is
abandoned, and stopped if it runs Python code). Ctrl-C stops the search:
evaluations under way finish and are stored, a second Ctrl-C abandons them
(not stored), then KeyboardInterrupt is raised; the store holds only
complete evaluations, and resume=True continues.

As approx-tune: `holdout_fn` re-measures the frontier on held-out inputs,
`calibration_fn` with `certify=0.05` certifies each loss level's pick on
calibration inputs (docs/tuning.md#certification), and `out_dir` receives
summary.json, speedup.txt, pareto.csv, plot.svg, best_config.json and
tuned.mlir.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import math
import numbers
import os
import sys
import threading
import time
from typing import Callable, Dict, Optional, Sequence, Tuple, Union

from . import _core
from ._files import write_atomically
from .space import Space

EvaluateFn = Callable[[Dict[str, int]], Tuple[float, float]]
ResultCallback = Callable[[Dict[str, int], float, float], None]

DEFAULT_DATABASE = "opentuner.db"
DEFAULT_MAX_EVALS = 10_000


def _env_number(name: str, default: float) -> float:
    """The number in environment variable `name`, else `default`."""
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"environment variable {name}={text!r} is not a "
                         "number") from None


class EvaluationTimeout(Exception):
    """An evaluation gave no result within its timeout."""


class EvaluationAbandoned(Exception):
    """An evaluation abandoned by a second Ctrl-C."""


def _call_with_timeout(fn, config, timeout: float,
                       abandon: threading.Event):
    """fn(config) on a thread of its own: its result, or EvaluationTimeout
    after `timeout` seconds, or EvaluationAbandoned once `abandon` is set.
    A call given up on is abandoned (a daemon thread) and, if it is running
    Python code, stopped by an exception raised in it."""
    box = {}
    done = threading.Event()

    def run():
        try:
            box["value"] = fn(config)
        except BaseException as e:  # handed to the caller
            box["error"] = e
        finally:
            done.set()

    t = threading.Thread(target=run, name="approx_runtime evaluation",
                         daemon=True)
    t.start()
    deadline = time.monotonic() + timeout
    while not done.wait(min(0.1, max(deadline - time.monotonic(), 0))):
        give_up = (EvaluationAbandoned if abandon.is_set() else
                   EvaluationTimeout if time.monotonic() >= deadline else None)
        if give_up is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(t.ident), ctypes.py_object(give_up))
            raise give_up(f"no result within {timeout:g} s"
                          if give_up is EvaluationTimeout else "abandoned")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _whole(name: str, value, least: int) -> int:
    """`value` as an int >= least, else an error naming the argument."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number, not "
                        f"{type(value).__name__} ({value!r})")
    if value < least:
        raise ValueError(f"{name}={value!r}: must be at least {least}")
    return int(value)


def default_accuracy_threshold() -> float:
    """ACCURACY_THRESHOLD, else 0.9 (the seed's default)."""
    return _env_number("ACCURACY_THRESHOLD", 0.9)


def default_time_budget(default: float) -> float:
    """TUNING_TIME_BUDGET (seconds), else `default`."""
    return _env_number("TUNING_TIME_BUDGET", default)


def tune(mlir_source: Union[str, Space, None] = None,
         evaluate_fn: Optional[EvaluateFn] = None,
         accuracy_threshold: Optional[float] = None,
         time_budget: Optional[float] = None,
         database: Optional[str] = DEFAULT_DATABASE,
         parallelism: int = 1,
         result_callback: Optional[ResultCallback] = None, *,
         max_evals: int = DEFAULT_MAX_EVALS, seed: int = 1,
         mode: str = "dynamic", resume: bool = False, progress: bool = True,
         filename: str = "<mlir>",
         start_from: Sequence[dict] = (),
         holdout_fn: Optional[EvaluateFn] = None,
         calibration_fn: Optional[EvaluateFn] = None,
         certify: Optional[float] = None,
         certify_bound: str = "betting",
         certify_candidates: int = 0,
         out_dir: Optional[str] = None,
         timeout: Optional[float] = None,
         space: Optional[Space] = None,
         repetitions: int = 3,
         time_tolerance: float = 0.02) -> dict:
    """Searches the configurations of the annotations of `mlir_source`
    (MLIR text), or of a Space declared in Python (approx_runtime.Space,
    as `mlir_source` or `space=`).

    accuracy_threshold: minimum accuracy in [0, 1] (default
        ACCURACY_THRESHOLD, else 0.9).
    time_budget: seconds of search (default TUNING_TIME_BUDGET, else 3600);
        0 = until max_evals.
    database: the results store (SQLite); None keeps nothing.
    parallelism: configurations evaluated at once, each call of
        evaluate_fn on a thread of its own (the GIL is held only while
        Python runs: evaluators that wait on processes or release the GIL
        run in parallel).
    result_callback(config, time_ms, accuracy): after each successful
        evaluation; an exception from it stops the search and is raised.
    max_evals: evaluations of candidates at most (the exact baseline not
        counted); spaces no larger are enumerated.
    seed, mode ("dynamic": decision trees; "static": one value per knob),
    resume (continue the latest run of this space in `database`, with the
        same accuracy_threshold, parallelism and seed), progress (a line on
        stderr per batch).
    start_from: configurations measured first, right after the baseline
        (e.g. the static search's frontier configs when searching the
        dynamic space: approx-tune's --start-from); each must belong to the
        space searched (ValueError otherwise) and counts against max_evals.
    holdout_fn(config): the evaluator of held-out (test) inputs, disjoint
        from the tuning ones; the frontier is re-measured with it and the
        reports show both (approx-tune's --holdout-eval).
    calibration_fn(config): the evaluator of calibration inputs, disjoint
        from both, returning per-input scores; with `certify` (an error
        level delta, e.g. 0.05) each level's pick is certified there: its
        loss relative to the exact configuration is at most the level with
        probability 1 - delta (approx-tune's --certify, --calibration-eval).
        It is called once per configuration (the exact one first and last),
        whatever `repetitions` says, and only for the frontier points a
        level's fixed sequence reaches. With certify, best_config is the
        pick certified at accuracy_threshold (best_certified is True; the
        exact configuration when none is).
    certify_bound: "betting" (default) or "hoeffding-bentkus".
    certify_candidates: with more frontier points than this within the
        loosest level, certify only some, chosen on the tuning set
        (approx-tune's --certify-candidates; 0, the default: every point).
    out_dir: a directory for approx-tune's output files (written
        atomically); result["outputs"] has their texts in any case.
    timeout: seconds per evaluation (None: an hour for the first, then 10x
        the first one's wall time + 10 s, as approx-tune); an evaluation
        without a result by then is recorded as timed out.
    repetitions: calls of the evaluator per configuration at most, the
        medians of time and accuracy kept (default 3, as approx-tune); with
        more than 1 the exact baseline is measured 2N+1 times and a speedup
        within the spread of those samples is not deployed (reported as
        within the noise).
    time_tolerance: stop repeating a configuration after two calls with the
        same accuracy whose times differ by at most this fraction of their
        median (default 0.02; 0: always `repetitions` calls).

    Returns {"best_config", "best_mlir", "best_time" (ms), "best_accuracy",
    "met_threshold", "baseline_time", "baseline_accuracy", "speedup",
    "frontier" ([{config, time, accuracy, static}] in ascending time: the
    time/accuracy Pareto frontier, and in a dynamic search the static
    configurations' own, `static` saying which points are static: baked,
    a static point runs without its trees' state, which the tuning build
    measures, so it can look dominated there), "evaluations", "new_evaluations", "failed", "stop_reason",
    "seconds", "space_size", "run_id", "interrupted", "best_certified",
    "outputs" ({file name: text}, empty when interrupted), "within_noise"}.
    When no approximate configuration meets the threshold, best_* is the
    exact configuration and met_threshold says whether even that one met it;
    so it is when the fastest one's speedup is within the exact
    configuration's measured noise, and within_noise holds that speedup
    (else None).
    summary.json in outputs holds each level's pick ("picks"), the held-out
    and certified results.
    """
    if space is not None:
        if mlir_source is not None:
            raise TypeError("give the space to search once: mlir_source or space=")
        mlir_source = space
    if isinstance(mlir_source, Space):
        filename = "<space>" if filename == "<mlir>" else filename
        mlir_source = mlir_source.mlir()
    elif not isinstance(mlir_source, str):
        raise TypeError("the space to search must be MLIR text (str) or an "
                        "approx_runtime.Space, not " + type(mlir_source).__name__)
    if not callable(evaluate_fn):
        raise TypeError("evaluate_fn must be callable: (config) -> "
                        "(time_ms, accuracy)")
    if result_callback is not None and not callable(result_callback):
        raise TypeError("result_callback must be callable or None")
    if accuracy_threshold is None:
        accuracy_threshold = default_accuracy_threshold()
    if time_budget is None:
        time_budget = default_time_budget(3600)
    if resume and not database:
        raise ValueError("resume=True needs a database")
    parallelism = _whole("parallelism", parallelism, 1)
    max_evals = _whole("max_evals", max_evals, 1)
    seed = _whole("seed", seed, 0)
    repetitions = _whole("repetitions", repetitions, 1)
    certify_candidates = _whole("certify_candidates", certify_candidates, 0)
    if not (isinstance(time_tolerance, numbers.Real) and not isinstance(time_tolerance, bool)
            and math.isfinite(time_tolerance) and time_tolerance >= 0):
        raise ValueError(f"time_tolerance={time_tolerance!r}: give a fraction >= 0 "
                         "(0: always `repetitions` calls)")
    if timeout is not None and not (
            isinstance(timeout, numbers.Real) and not isinstance(timeout, bool)
            and math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"timeout={timeout!r}: give a positive number of "
                         "seconds, or None")
    if isinstance(start_from, (str, bytes, dict)):
        raise TypeError("start_from must be a sequence of configurations "
                        "(dicts), not a single " + type(start_from).__name__)
    for i, c in enumerate(start_from):
        if not isinstance(c, dict):
            raise TypeError(f"start_from[{i}] must be a dict of parameter "
                            f"values, not {type(c).__name__}")
        for k, v in c.items():
            if not isinstance(k, str) or isinstance(v, bool) or \
                    not isinstance(v, numbers.Integral):
                raise TypeError(f"start_from[{i}][{k!r}] must be a whole "
                                f"number, not {v!r}")
    if certify is not None and not (isinstance(certify, (int, float))
                                    and 0 < certify < 1):
        raise ValueError(f"certify={certify!r}: give an error level in "
                         "(0, 1), e.g. 0.05")
    for what, fn in (("holdout_fn", holdout_fn),
                     ("calibration_fn", calibration_fn)):
        if fn is not None and not callable(fn):
            raise TypeError(f"{what} must be callable or None")
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
    name = getattr(evaluate_fn, "__qualname__", type(evaluate_fn).__name__)
    abandon = threading.Event()
    job = _core.start_tune(
        mlir_source, evaluate_fn, float(accuracy_threshold), float(time_budget),
        database or "", parallelism, result_callback, max_evals,
        seed, mode, bool(resume), bool(progress), filename,
        f"python: {name}", [dict(c) for c in start_from], holdout_fn,
        calibration_fn, float(certify or 0), certify_bound,
        float(timeout or 0), functools.partial(_call_with_timeout,
                                               abandon=abandon),
        repetitions, float(time_tolerance), certify_candidates)
    try:
        while not job.wait(0.2):
            pass
    except KeyboardInterrupt:
        job.stop()
        sys.stderr.write("approx_runtime.tune: interrupted; the evaluations "
                         "under way finish and are kept"
                         + (f" in '{database}'" if database else "")
                         + " (Ctrl-C again abandons them)\n")
        while True:
            try:
                while not job.wait(0.2):
                    pass
                break
            except KeyboardInterrupt:
                if not abandon.is_set():
                    abandon.set()
                    sys.stderr.write("approx_runtime.tune: abandoning the "
                                     "evaluations under way (not stored)\n")
        raise
    result = job.result()
    if out_dir is not None and result["outputs"]:
        files = dict(result["outputs"], **{"tuned.mlir": result["best_mlir"]})
        for name, text in files.items():
            write_atomically(os.path.join(out_dir, name), text)
    return result


def create_tuner_arg_parser(**kwargs) -> argparse.ArgumentParser:
    """An argparse parser with the tuner's command-line options (the seed's
    names); add your own and pass the parsed args to ApproxTunerInterface."""
    parser = argparse.ArgumentParser(**kwargs)
    g = parser.add_argument_group("approx_runtime tuning")
    g.add_argument("--stop-after", type=float, metavar="SECONDS",
                   default=default_time_budget(300),
                   help="tuning time limit (default: TUNING_TIME_BUDGET, "
                        "else 300)")
    g.add_argument("--parallelism", type=int, default=1, metavar="N",
                   help="configurations evaluated at once (default 1)")
    g.add_argument("--no-dups", action="store_true",
                   help="skip duplicate configurations (always the case: "
                        "accepted for compatibility)")
    g.add_argument("--accuracy-threshold", type=float, metavar="F",
                   default=default_accuracy_threshold(),
                   help="minimum accuracy in [0, 1] (default: "
                        "ACCURACY_THRESHOLD, else 0.9)")
    g.add_argument("--output-config", metavar="FILE",
                   help="write the best configuration (JSON)")
    g.add_argument("--output-mlir", metavar="FILE",
                   help="write the MLIR with the best configuration")
    g.add_argument("--database", default=DEFAULT_DATABASE, metavar="FILE",
                   help=f"results store (default {DEFAULT_DATABASE})")
    g.add_argument("--test-limit", type=int, default=DEFAULT_MAX_EVALS,
                   metavar="N", help="evaluations at most "
                   f"(default {DEFAULT_MAX_EVALS})")
    g.add_argument("--seed", type=int, default=1, help="search seed (default 1)")
    g.add_argument("--mode", choices=["dynamic", "static"], default="dynamic",
                   help="decision trees (dynamic, default) or one value "
                        "per knob (static)")
    g.add_argument("--resume", action="store_true",
                   help="continue the latest run of this space in the "
                        "database")
    g.add_argument("--repetitions", type=int, default=3, metavar="N",
                   help="evaluator calls per configuration at most, medians "
                        "kept (default 3)")
    g.add_argument("--time-tolerance", type=float, default=0.02, metavar="F",
                   help="stop repeating after two calls whose times differ "
                        "by at most this fraction (default 0.02)")
    g.add_argument("--quiet", action="store_true", help="no progress lines")
    return parser


class ApproxTunerInterface:
    """Tuning driven by parsed command-line options
    (create_tuner_arg_parser):

        tuner = ar.ApproxTunerInterface(args=args, mlir_source=mlir,
                                        evaluate_fn=evaluate,
                                        accuracy_threshold=0.95)
        result = tuner.run_tuning()
    """

    def __init__(self, args: argparse.Namespace, mlir_source: str,
                 evaluate_fn: EvaluateFn,
                 accuracy_threshold: Optional[float] = None,
                 result_callback: Optional[ResultCallback] = None):
        self.args = args
        self.mlir_source = mlir_source
        self.evaluate_fn = evaluate_fn
        self.accuracy_threshold = (accuracy_threshold
                                   if accuracy_threshold is not None
                                   else getattr(args, "accuracy_threshold",
                                                None))
        self.result_callback = result_callback

    def run_tuning(self) -> dict:
        """Tunes; writes --output-config / --output-mlir when given."""
        a = self.args
        get = lambda name, default: getattr(a, name, default)  # noqa: E731
        result = tune(self.mlir_source, self.evaluate_fn,
                      accuracy_threshold=self.accuracy_threshold,
                      time_budget=get("stop_after", None),
                      database=get("database", DEFAULT_DATABASE),
                      parallelism=get("parallelism", 1),
                      result_callback=self.result_callback,
                      max_evals=get("test_limit", DEFAULT_MAX_EVALS),
                      seed=get("seed", 1), mode=get("mode", "dynamic"),
                      resume=get("resume", False),
                      progress=not get("quiet", False),
                      repetitions=get("repetitions", 3),
                      time_tolerance=get("time_tolerance", 0.02))
        if get("output_config", None):
            write_atomically(a.output_config,
                             _core.to_json(result["best_config"]))
        if get("output_mlir", None):
            write_atomically(a.output_mlir, result["best_mlir"])
        return result


__all__ = ["tune", "create_tuner_arg_parser", "ApproxTunerInterface",
           "EvaluationTimeout"]
