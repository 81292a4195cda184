"""ar.tune, ApproxTunerInterface and create_tuner_arg_parser: the C++
search with Python evaluators (synthetic with a known optimum, and a real
annotated C kernel), the results store, Ctrl-C and resume, parallelism."""

import itertools
import json
import os
import signal
import re
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

import approx_runtime as ar
from conftest import run_python

# A small space: 2 thresholds in [0, 6], 3 decisions from {0, 1, 2, 3}.
SMALL = """
func.func @state(%x: i32) -> i32 { return %x : i32 }
func.func @f(%x: i32) { return }
"approx.util.annotation.decision_tree"() <{func_name = "f",
  transform_type = "loop_perforate", state_indices = array<i64: 0>,
  state_function = "state", thresholds = array<i32: 2, 4>,
  thresholds_lowers = array<i32: 0, 0>, thresholds_uppers = array<i32: 6, 6>,
  decisions = array<i32: 0, 0, 0>, decision_values = array<i32: 0, 1, 2, 3>}> : () -> ()
"""


def synthetic(config):
    """States 0..9 equally likely; state s gets the decision of its region.
    Time falls and accuracy drops with the decision, unevenly by region."""
    t0, t1 = config["f_threshold_0"], config["f_threshold_1"]
    d = [config[f"f_decision_{j}"] for j in range(3)]
    time_ms, loss = 0.0, 0.0
    for s in range(10):
        k = d[0] if s < t0 else d[1] if s < t1 else d[2]
        time_ms += 10.0 / (1 + k)
        loss += k * (0.002 if s >= 7 else 0.02)
    return time_ms, max(0.0, 1.0 - loss)


def brute_force_best(threshold):
    m = ar.MLIRConfigManager()
    params = m.parse_annotations(SMALL)
    best = None
    for t0, t1 in itertools.product(range(7), repeat=2):
        for d in itertools.product(range(4), repeat=3):
            c = {"f_threshold_0": t0, "f_threshold_1": t1,
                 "f_decision_0": d[0], "f_decision_1": d[1], "f_decision_2": d[2]}
            if not m.validate_config(c, params):
                continue
            t, a = synthetic(c)
            if a >= threshold and (best is None or t < best[0]):
                best = (t, a)
    return best


def test_known_optimum_is_found(tmp_path):
    # Trees that run different code: 4 with equal decisions (thresholds
    # separate nothing), 12 sequences with one change x 12 places for the
    # threshold that matters, 36 with two x 21 ascending threshold pairs.
    size = 4 + 12 * 12 + 36 * 21
    seen = []
    result = ar.tune(SMALL, synthetic, accuracy_threshold=0.95, time_budget=0,
                     database=str(tmp_path / "t.db"), max_evals=size,
                     result_callback=lambda c, t, a: seen.append((c, t, a)),
                     progress=False)
    assert result["space_size"] == size and isinstance(result["space_size"], int)
    assert result["stop_reason"] == "space enumerated"
    best_time, best_accuracy = brute_force_best(0.95)
    assert result["best_time"] == pytest.approx(best_time)
    assert result["best_accuracy"] == pytest.approx(best_accuracy)
    assert result["best_accuracy"] >= 0.95 and result["met_threshold"]
    assert synthetic(result["best_config"])[0] == pytest.approx(best_time)
    # best_mlir carries the best configuration
    applied = ar.MLIRConfigManager().default_config(result["best_mlir"])
    assert applied == result["best_config"]
    # every successful evaluation reached the callback (baseline included)
    assert len(seen) == result["evaluations"] + 1
    assert all(isinstance(c, dict) and t > 0 for c, t, a in seen)
    # the frontier is ascending in time; its points that are not static
    # ascend in accuracy, and a point dominated there is static (a dynamic
    # search keeps the static configurations' own frontier)
    f = result["frontier"]
    assert all(x["time"] <= y["time"] for x, y in zip(f, f[1:]))
    mixed = [p for p in f if not p["static"]]
    assert all(x["accuracy"] < y["accuracy"] for x, y in zip(mixed, mixed[1:]))
    for p in f:
        if any(q["time"] <= p["time"] and q["accuracy"] > p["accuracy"] for q in f):
            assert p["static"], p
    assert any(p["static"] for p in f)
    # and everything is in the store
    with sqlite3.connect(tmp_path / "t.db") as db:
        n = db.execute("select count(*) from evaluations").fetchone()[0]
    assert n == result["evaluations"] + 1


def test_knobs_in_variants_run_only_where_selected():
    # test/Tuner/Inputs/variant-knobs.mlir: `mean` substituted over {0, 1};
    # a perforation knob in each of approx_mean_1 and approx_mean_2.
    path = os.path.join(os.path.dirname(__file__), "..", "..", "test", "Tuner",
                        "Inputs", "variant-knobs.mlir")
    with open(path) as f:
        space = ar._core.Space.from_mlir(f.read())
    knobs = {k["name"]: k for k in space.knobs}
    assert knobs["mean"]["gate"] is None and knobs["mean"]["reachable"]
    assert knobs["approx_mean_1"]["gate"] == ("mean", 1)
    assert knobs["approx_mean_1"]["reachable"]
    assert knobs["approx_mean_2"]["gate"] == ("mean", 2)
    assert not knobs["approx_mean_2"]["reachable"]
    assert space.size(False) == space.size(True) == 4  # not 2 * 3 * 3
    # approx_mean_1's perforation is measured as exact while `mean` is.
    dead = space.canonical({"mean_knob_val": 0, "approx_mean_1_knob_val": 4}, False)
    assert dead == space.exact()
    live = space.canonical({"mean_knob_val": 1, "approx_mean_1_knob_val": 4}, False)
    assert live["approx_mean_1_knob_val"] == 4


def test_ensemble_search_under_a_budget(tmp_path):
    result = ar.tune(SMALL, synthetic, accuracy_threshold=0.95, time_budget=0,
                     database=None, max_evals=150, seed=3, progress=False)
    assert result["evaluations"] == 150 and result["met_threshold"]
    # 150 of 1,344 configurations, and the optimum among them (seeded)
    assert result["best_time"] == pytest.approx(brute_force_best(0.95)[0])


def test_parallel_evaluations_overlap():
    lock = threading.Lock()
    active, peak = [0], [0]

    def evaluate(config):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.05)  # releases the GIL, as a process wait does
        with lock:
            active[0] -= 1
        return synthetic(config)

    result = ar.tune(SMALL, evaluate, accuracy_threshold=0.9, time_budget=0,
                     database=None, parallelism=4, max_evals=16, progress=False)
    assert result["evaluations"] == 16
    assert peak[0] >= 2


def test_evaluator_problems_are_failed_measurements(capfd):
    calls = [0]

    def evaluate(config):
        calls[0] += 1
        if calls[0] == 1:
            return 10.0, 1.0
        if calls[0] % 3 == 2:
            raise ValueError("boom")
        if calls[0] % 3 == 0:
            return "fast"
        return 5.0, 1.5  # accuracy out of range

    result = ar.tune(SMALL, evaluate, accuracy_threshold=0.9, time_budget=0,
                     database=None, max_evals=6, progress=False, repetitions=1)
    assert result["failed"] == 6 and not result["frontier"][1:]
    err = capfd.readouterr().err
    assert "approx_runtime.tune: warning:" in err and "boom" in err


def test_repetitions_as_approx_tune():
    """repetitions=3 (the default): the baseline is measured to 7 samples
    at least (how well they fix its median is the run's noise); a configuration whose first two calls agree
    within time_tolerance is called twice, a noisy one three times, the
    medians kept; a speedup within the baseline's noise is not deployed."""
    calls = {}
    noisy = {"f_decision_0": 2, "f_decision_1": 2, "f_decision_2": 2}

    def evaluate(config):
        key = tuple(sorted(config.items()))
        n = calls[key] = calls.get(key, 0) + 1
        if all(v == 0 for k, v in config.items() if "decision" in k):
            return (10.0, 9.0, 11.0, 10.5, 9.5, 10.2, 9.8)[(n - 1) % 7], 1.0  # the baseline
        if config["f_decision_0"] == 2 and config["f_decision_1"] == 2 and \
                config["f_decision_2"] == 2:
            return (9.6, 5.0, 9.7)[n - 1], 1.0  # 1.04x: within the noise
        return 100.0, 0.5  # deterministic and infeasible

    result = ar.tune(SMALL, evaluate, accuracy_threshold=0.9, database=None,
                     max_evals=3, time_budget=0, progress=False,
                     start_from=[noisy])
    exact = {k for k in calls if all(v == 0 for name, v in k if "decision" in name)}
    assert len(exact) == 1 and calls[next(iter(exact))] >= 7
    assert sorted(n for k, n in calls.items() if k not in exact) == [2, 2, 3]
    summary = json.loads(result["outputs"]["summary.json"])
    assert all(p["exact"] and p["within_noise"] == pytest.approx(10 / 9.6, rel=1e-4)
               for p in summary["picks"].values())
    # best_* is the exact configuration, the hidden speedup reported apart.
    assert result["best_config"]["f_decision_0"] == 0 and result["speedup"] == 1
    assert result["within_noise"] == pytest.approx(10 / 9.6)
    with pytest.raises(ValueError, match="repetitions=0: must be at least 1"):
        ar.tune(SMALL, synthetic, database=None, repetitions=0)
    with pytest.raises(ValueError, match="time_tolerance=-1"):
        ar.tune(SMALL, synthetic, database=None, time_tolerance=-1)


def test_errors():
    with pytest.raises(RuntimeError, match="the exact configuration failed.*"
                                           "evaluate_fn raised KeyError"):
        ar.tune(SMALL, lambda c: {}["x"], database=None, progress=False)
    with pytest.raises(RuntimeError, match="result_callback raised ZeroDivisionError"):
        ar.tune(SMALL, synthetic, database=None, max_evals=5, progress=False,
                result_callback=lambda c, t, a: 1 / 0)
    with pytest.raises(ValueError, match="no approx annotations"):
        ar.tune("func.func @f() { return }", synthetic, database=None)
    with pytest.raises(ValueError, match="accuracy_threshold must be within"):
        ar.tune(SMALL, synthetic, accuracy_threshold=2, database=None)
    with pytest.raises(ValueError, match="mode must be"):
        ar.tune(SMALL, synthetic, mode="both", database=None)
    with pytest.raises(TypeError, match="evaluate_fn must be callable"):
        ar.tune(SMALL, None, database=None)
    with pytest.raises(ValueError, match="resume=True needs a database"):
        ar.tune(SMALL, synthetic, database=None, resume=True)


def test_start_from_is_measured_first():
    """start_from configs are measured right after the baseline, in order
    (partial ones completed with the annotations' values), and count
    against max_evals; a config outside the space, or one a static search
    cannot hold, is a ValueError naming it."""
    seen = []

    def evaluate(config):
        seen.append(dict(config))
        return synthetic(config)

    start = [{"f_decision_0": 2, "f_decision_1": 2, "f_decision_2": 2},
             {"f_threshold_0": 1, "f_threshold_1": 5, "f_decision_0": 0,
              "f_decision_1": 1, "f_decision_2": 3}]
    result = ar.tune(SMALL, evaluate, accuracy_threshold=0.5, database=None,
                     max_evals=6, time_budget=0, progress=False, start_from=start,
                     repetitions=1)
    assert seen[0] == {"f_threshold_0": 2, "f_threshold_1": 4, "f_decision_0": 0,
                       "f_decision_1": 0, "f_decision_2": 0}  # the baseline
    assert seen[1] == {**seen[0], **start[0]}
    assert seen[2] == start[1]
    assert result["evaluations"] == 6
    with pytest.raises(ValueError, match=r"start_from\[0\]: .*f_decision_0"):
        ar.tune(SMALL, synthetic, database=None, progress=False,
                start_from=[{"f_decision_0": 9}])
    with pytest.raises(ValueError, match=r"start_from\[1\]: .*not a static configuration"):
        ar.tune(SMALL, synthetic, database=None, progress=False, mode="static",
                start_from=[start[0], start[1]])


def test_environment_defaults(monkeypatch):
    monkeypatch.setenv("ACCURACY_THRESHOLD", "0.5")
    result = ar.tune(SMALL, synthetic, database=None, max_evals=30,
                     time_budget=0, progress=False)
    assert result["best_accuracy"] < 0.9  # only 0.5 was asked for
    monkeypatch.setenv("TUNING_TIME_BUDGET", "soon")
    with pytest.raises(ValueError, match="TUNING_TIME_BUDGET='soon' is not a number"):
        ar.tune(SMALL, synthetic, database=None)
    monkeypatch.setenv("TUNING_TIME_BUDGET", "7")
    assert ar.create_tuner_arg_parser().parse_args([]).stop_after == 7


def test_tuner_interface_and_parser(tmp_path):
    parser = ar.create_tuner_arg_parser()
    parser.add_argument("--my-custom-arg", type=int)
    args = parser.parse_args([
        "--stop-after", "60", "--parallelism", "2", "--no-dups",
        "--accuracy-threshold", "0.95", "--output-config", str(tmp_path / "best.json"),
        "--output-mlir", str(tmp_path / "tuned.mlir"), "--database",
        str(tmp_path / "t.db"), "--test-limit", "40", "--quiet",
        "--my-custom-arg", "3"])
    results = []
    tuner = ar.ApproxTunerInterface(args=args, mlir_source=SMALL,
                                    evaluate_fn=synthetic,
                                    result_callback=lambda *r: results.append(r))
    result = tuner.run_tuning()
    assert result["evaluations"] == 40 and result["best_accuracy"] >= 0.95
    assert json.loads((tmp_path / "best.json").read_text()) == result["best_config"]
    tuned = (tmp_path / "tuned.mlir").read_text()
    assert ar.MLIRConfigManager().default_config(tuned) == result["best_config"]
    assert results and not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


INTERRUPTED = r"""
import signal, sys, time, approx_runtime as ar
# Ctrl-C raises KeyboardInterrupt even when this test runs in the background
# of a non-interactive shell (which starts children with SIGINT ignored).
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, sys.argv[2])
from test_tune import SMALL, synthetic
def evaluate(config):
    time.sleep(float(sys.argv[3]))
    return synthetic(config)
def seen(c, t, a):
    print("evaluated", flush=True)
r = ar.tune(SMALL, evaluate, accuracy_threshold=0.95, time_budget=0,
            database=sys.argv[1], max_evals=40, seed=5, progress=False,
            resume=len(sys.argv) > 4, result_callback=seen)
print("result", r["best_time"], r["best_accuracy"], r["evaluations"],
      r["new_evaluations"], flush=True)
"""


def test_ctrl_c_keeps_the_store_and_resume_continues(tmp_path):
    here = os.path.dirname(__file__)
    db = str(tmp_path / "t.db")
    p = subprocess.Popen([sys.executable, "-c", INTERRUPTED, db, here, "0.05"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(6):
        assert p.stdout.readline().startswith("evaluated")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode != 0
    assert "KeyboardInterrupt" in err and "interrupted" in err
    with sqlite3.connect(db) as con:
        stored = con.execute("select count(*) from evaluations").fetchone()[0]
    assert 6 <= stored < 41

    resumed = run_python(INTERRUPTED, db, here, "0", "resume")
    assert resumed.returncode == 0, resumed.stderr
    fresh = run_python(INTERRUPTED, str(tmp_path / "fresh.db"), here, "0")
    r = resumed.stdout.split("result ")[1].split()
    f = fresh.stdout.split("result ")[1].split()
    assert r[:3] == f[:3]  # same best time, accuracy, evaluation count
    assert int(r[3]) == 41 - stored  # stored ones replayed, not re-run
    assert int(f[3]) == 41


HANGING = r"""
import signal, sys, time, approx_runtime as ar
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, sys.argv[2])
from test_tune import SMALL, synthetic
def evaluate(config):
    if config["f_decision_0"] == 2:
        print("hanging", flush=True)
        time.sleep(10 ** 6)  # never returns
    return synthetic(config)
ar.tune(SMALL, evaluate, accuracy_threshold=0.95, time_budget=0,
        database=sys.argv[1], max_evals=40, seed=5, progress=False)
"""


def test_two_ctrl_c_end_a_hanging_evaluation_promptly(tmp_path):
    """An evaluator that never returns (and no timeout given: the first
    evaluation's derived one is far away): the first Ctrl-C waits for it,
    the second abandons it; the process ends in seconds, the store holds
    only complete evaluations (they used to block forever, Ctrl-Cs
    ignored)."""
    db = str(tmp_path / "t.db")
    p = subprocess.Popen([sys.executable, "-c", HANGING, db,
                          os.path.dirname(__file__)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().startswith("hanging")
    p.send_signal(signal.SIGINT)
    time.sleep(0.5)
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert time.monotonic() - start < 10
    assert p.returncode != 0 and "KeyboardInterrupt" in err
    assert "abandoning the evaluations under way" in err
    with sqlite3.connect(db) as con:
        rows = con.execute("select config, status from evaluations").fetchall()
    assert rows and all(status == "ok" for _, status in rows)
    assert not [c for c, _ in rows if "f_decision_0=2" in c]


def test_timeout_records_a_hanging_evaluation_as_timed_out(tmp_path):
    """timeout=: an evaluation without a result in time is a timeout (a
    busy loop is stopped, a sleep abandoned); the search goes on."""
    def evaluate(config):
        if config["f_decision_0"] == 1:
            while True:
                pass
        if config["f_decision_0"] == 2:
            time.sleep(10 ** 6)
        return synthetic(config)
    db = str(tmp_path / "t.db")
    start = time.monotonic()
    r = ar.tune(SMALL, evaluate, accuracy_threshold=0.5, time_budget=0,
                database=db, max_evals=30, timeout=0.3, progress=False)
    assert time.monotonic() - start < 60
    assert r["evaluations"] == 30 and r["failed"] > 0
    with sqlite3.connect(db) as con:
        timed_out = con.execute("select config, message from evaluations "
                                "where status = 'timeout'").fetchall()
    assert len(timed_out) == r["failed"]
    assert all("no result within 0.3 s" in m for _, m in timed_out)
    assert all("f_decision_0=1" in c or "f_decision_0=2" in c
               for c, _ in timed_out)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(parallelism=-1), ValueError, "parallelism=-1: must be at least 1"),
    (dict(max_evals=-1), ValueError, "max_evals=-1: must be at least 1"),
    (dict(seed=-1), ValueError, "seed=-1: must be at least 0"),
    (dict(parallelism=2.5), TypeError, "parallelism must be a whole number"),
    (dict(start_from=[1]), TypeError, r"start_from\[0\] must be a dict"),
    (dict(start_from=[{"f_decision_0": "1"}]), TypeError,
     r"start_from\[0\]\['f_decision_0'\] must be a whole number"),
    (dict(start_from="f_decision_0=1"), TypeError, "not a single str"),
    (dict(timeout=0), ValueError, "timeout=0: give a positive number"),
    (dict(timeout=float("nan")), ValueError, "timeout=nan"),
])
def test_bad_arguments_are_named(kwargs, error, message):
    """Each bad argument is named (they raised a binding TypeError that
    named none)."""
    with pytest.raises(error, match=message):
        ar.tune(SMALL, synthetic, database=None, **kwargs)


def test_real_c_kernel(tools, repo, tmp_path):
    """examples/tune/kernel.c: annotations from its comments (approx-cc),
    a runtime-table build measured in processes, two at a time."""
    kernel = repo / "examples" / "tune" / "kernel.c"
    mlir = subprocess.run([str(tools / "approx-cc"), str(kernel), "--emit=annotated"],
                          capture_output=True, text=True, check=True).stdout
    exe = tmp_path / "kernel"
    subprocess.run([str(tools / "approx-cc"), str(kernel), "--approx-runtime-table",
                    "-o", str(exe), "-lm"], check=True)
    params = ar.MLIRConfigManager().parse_annotations(mlir)
    assert "squash_knob_val" in params and "row_mean_threshold_0" in params

    def evaluate(config):
        path = tmp_path / f"config-{threading.get_ident()}.json"
        path.write_text(json.dumps(config))
        out = subprocess.run([str(exe)], env=dict(os.environ, APPROX_CONFIG=str(path)),
                             capture_output=True, text=True, check=True).stdout
        fields = dict(kv.split("=") for kv in out.split("approx-result:")[1].split())
        return float(fields["time"]) * 1000, float(fields["qos"])

    result = ar.tune(mlir, evaluate, accuracy_threshold=0.99, time_budget=120,
                     database=str(tmp_path / "t.db"), parallelism=2, max_evals=16,
                     progress=False)
    assert result["evaluations"] == 16 and result["failed"] == 0
    assert result["baseline_accuracy"] > 0.999999  # exact = reference
    assert result["best_accuracy"] >= 0.99
    assert ar.MLIRConfigManager().default_config(result["best_mlir"]) == result["best_config"]


def _per_input(config, inputs, offset):
    """The synthetic space measured on `inputs` inputs: input i is answered
    by the exact configuration when (i * 7) % 10 < 7 and by `config` when
    also its loss rate (1 - synthetic accuracy) is below a fixed
    pseudo-random number of the input."""
    time_ms, accuracy = synthetic(config)
    rate = 1 - accuracy
    scores = {}
    for i in range(offset, offset + inputs):
        u = ((i * 2654435761) % 1000) / 1000
        scores[f"q{i}"] = 1.0 if (i * 7) % 10 < 7 and u >= rate else 0.0
    right = sum(scores.values())
    base = sum(1 for i in range(offset, offset + inputs) if (i * 7) % 10 < 7)
    return time_ms, min(1.0, right / base), scores


def test_certify_and_outputs(tmp_path):
    calls = {"holdout": 0, "calibration": 0}

    def holdout(c):
        calls["holdout"] += 1
        return _per_input(c, 100, 10_000)

    def calibration(c):
        calls["calibration"] += 1
        return _per_input(c, 2000, 20_000)

    out = tmp_path / "out"
    r = ar.tune(SMALL, lambda c: _per_input(c, 100, 0)[:2],
                accuracy_threshold=0.91, time_budget=0, max_evals=40,
                database=str(tmp_path / "t.db"), progress=False,
                holdout_fn=holdout, calibration_fn=calibration, certify=0.05,
                out_dir=str(out))
    assert calls["holdout"] >= 2 and calls["calibration"] >= 2
    assert r["best_certified"]
    summary = json.loads(r["outputs"]["summary.json"])
    assert sorted(os.listdir(out)) == ["best_config.json", "config_1.json", "config_3.json",
                                       "config_6.json", "config_9.json", "pareto.csv",
                                       "plot.svg", "speedup.txt", "summary.json", "tuned.mlir"]
    assert json.loads((out / "summary.json").read_text()) == summary
    cert = summary["certified"]
    assert summary["certification"]["inputs"] == 2000
    assert set(cert) >= {"1", "3", "6", "9"}
    for level, c in cert.items():
        if not c["exact"]:
            assert c["loss_upper"] <= c["level"] + 1e-3
            assert c["inputs"] == 2000
    # The 9 % level certifies an approximation on 2,000 inputs, and it is
    # what summary.json's picks deploy there.
    assert not cert["9"]["exact"] and cert["9"]["speedup"] > 1
    assert summary["picks"]["9"]["basis"] == "certified"
    assert summary["picks"]["9"]["config"] == cert["9"]["config"]
    assert json.loads((out / "best_config.json").read_text()) == cert["9"]["config"]
    # Each level's pick is a file of its own, the one summary.json names.
    for level, pick in summary["picks"].items():
        assert pick["file"] == f"config_{level}.json"
        assert json.loads((out / pick["file"]).read_text()) == pick["config"]
    assert "certified on the calibration set (2000 inputs" in r["outputs"]["speedup.txt"]


def _certified(accuracy_threshold=0.91, **options):
    """A certified run of SMALL on 2,000 calibration inputs: its summary.json
    and how many times calibration_fn was called."""
    calls = {"calibration": 0}

    def calibration(c):
        calls["calibration"] += 1
        return _per_input(c, 2000, 20_000)

    r = ar.tune(SMALL, lambda c: _per_input(c, 100, 0)[:2],
                accuracy_threshold=accuracy_threshold, time_budget=0, max_evals=40,
                database=None, calibration_fn=calibration, certify=0.05, **options)
    return json.loads(r["outputs"]["summary.json"]), calls["calibration"]


def test_certify_runs_each_calibration_once_with_progress(capfd):
    # Whatever `repetitions` says, calibration_fn is called once per
    # configuration certification measures (the exact one first and last),
    # and each re-measurement shows its progress.
    summary, calls = _certified(progress=True, repetitions=3, time_tolerance=0,
                                holdout_fn=lambda c: _per_input(c, 100, 10_000))
    assert calls == summary["certification"]["tested"] + 2
    err = capfd.readouterr().err
    assert "approx_runtime.tune: evaluation set: 1 of " in err
    assert re.search(r"approx_runtime\.tune: calibration set: \d+ of at most \d+ "
                     r"measurements \(certification\)\n", err), err


def test_certify_candidates_thins_the_sequence(capfd):
    # A bound of 40 % puts a dozen frontier points within the loosest level.
    whole, whole_calls = _certified(0.6, progress=False, certify_candidates=0)
    thinned, thinned_calls = _certified(0.6, progress=True, certify_candidates=1)
    # The progress lines count the thinned sequence, not the whole frontier.
    last = re.findall(r"calibration set: (\d+) of at most (\d+) measurements",
                      capfd.readouterr().err)[-1]
    assert int(last[0]) == thinned_calls and thinned_calls <= int(last[1]) <= 7 + 2
    # The most accurate point, one loss target and the five levels
    # (1/3/6/9 % and the bound, 40 %): at most 1 + 1 + 5 distinct
    # candidates, measured once each besides exact.
    assert thinned["certification"]["tested"] <= 7
    assert thinned_calls == thinned["certification"]["tested"] + 2
    assert whole_calls == whole["certification"]["tested"] + 2
    assert thinned["certification"]["tested"] < whole["certification"]["tested"]
    # With at most N points within the loosest level nothing is thinned (at
    # 9 %, three points; the points beyond it do not count).
    few, _ = _certified(progress=False, certify_candidates=3)
    every, _ = _certified(progress=False, certify_candidates=0)
    assert few["certification"]["tested"] == every["certification"]["tested"]
    with pytest.raises(ValueError, match="certify_candidates=-1"):
        ar.tune(SMALL, synthetic, time_budget=0, max_evals=5, database=None,
                calibration_fn=lambda c: _per_input(c, 10, 0), certify=0.05,
                certify_candidates=-1)


def test_certify_errors(tmp_path):
    with pytest.raises(ValueError, match="certify needs calibration_fn"):
        ar.tune(SMALL, synthetic, time_budget=0, max_evals=5, database=None,
                progress=False, certify=0.05)
    with pytest.raises(ValueError, match=r"certify=2: give an error level in \(0, 1\)"):
        ar.tune(SMALL, synthetic, time_budget=0, max_evals=5, database=None,
                progress=False, certify=2, calibration_fn=synthetic)
    # A calibration evaluator without per-input scores cannot certify.
    with pytest.raises(RuntimeError, match="certification needs per-input scores"):
        ar.tune(SMALL, synthetic, time_budget=0, max_evals=5, database=None,
                progress=False, certify=0.05, calibration_fn=synthetic)
    # Malformed scores are a failed measurement, named.
    with pytest.raises(RuntimeError, match=r"calibration_fn: per-input scores:2: "
                       r"score '1.5' of input '1' is not a number in \[0, 1\]"):
        ar.tune(SMALL, synthetic, time_budget=0, max_evals=5, database=None,
                progress=False, certify=0.05,
                calibration_fn=lambda c: (*synthetic(c), [1.0, 1.5]))
