"""ar.Space: a tuning space declared in Python (static knobs, decision trees,
decorated functions), tuned by ar.tune like any other space, with plain
errors for wrong types and configurations of another space."""

import itertools
import os

import pytest

import approx_runtime as ar


def pipeline_space():
    """A plain Python 'pipeline': a static top-k, a scorer decided by the
    question's difficulty (0..9) and a decorated step with a cheap variant."""
    space = ar.Space()
    space.static("top_k", [8, 4, 2, 1])
    space.tree("scorer", ["slow", "fast"], bounds=(0, 9))
    calls = []

    def cheap_normalise(x):
        calls.append("cheap")
        return round(x, 1)

    @space.function("normalise", variants=[cheap_normalise])
    def normalise(x):
        calls.append("exact")
        return x

    return space, normalise, calls


def evaluate_with(space, normalise):
    """Time and accuracy of the pipeline over difficulties 0..9: cost falls
    with k and the fast scorer; the fast scorer fails hard questions (>= 6),
    the cheap normalise costs a little accuracy."""
    def evaluate(config):
        time_ms, right = 0.0, 0.0
        with space.use(config):
            for difficulty in range(10):
                k = space.decide(config, "top_k")
                scorer = space.decide(config, "scorer", state=difficulty)
                time_ms += k * (1.0 if scorer == "slow" else 0.25)
                ok = (scorer == "slow" or difficulty < 6) and k >= 2
                right += normalise(1.0 if ok else 0.0) * (0.99 if normalise(0.04) == 0.0 else 1)
        return time_ms, right / 10
    return evaluate


def test_mlir_and_parameters_are_approx_tunes():
    space, _, _ = pipeline_space()
    params = ar.MLIRConfigManager().parse_annotations(space.mlir())
    names = sorted(params)
    assert names == ["normalise_knob_val", "scorer_decision_0", "scorer_decision_1",
                     "scorer_threshold_0", "top_k_knob_val"]
    assert space.knobs == ["top_k", "scorer", "normalise"]
    exact = space.exact()
    assert exact == {"top_k_knob_val": 0, "scorer_threshold_0": 4, "scorer_decision_0": 0,
                     "scorer_decision_1": 0, "normalise_knob_val": 0}
    assert ar.MLIRConfigManager().validate_config(exact, params)


def test_decide_follows_the_tree():
    space, _, _ = pipeline_space()
    c = dict(space.exact(), scorer_threshold_0=6, scorer_decision_0=1, top_k_knob_val=2)
    assert space.decide(c, "top_k") == 2
    assert [space.decide(c, "scorer", state=s) for s in range(10)] == ["fast"] * 6 + ["slow"] * 4


def test_decorated_function_follows_the_active_configuration():
    space, normalise, calls = pipeline_space()
    assert normalise(0.123) == 0.123  # outside use(): exact
    with space.use(dict(space.exact(), normalise_knob_val=1)):
        assert normalise(0.123) == 0.1
        with space.use(space.exact()):
            assert normalise(0.123) == 0.123
        assert normalise(0.123) == 0.1
    assert normalise(0.123) == 0.123
    assert calls == ["exact", "cheap", "exact", "cheap", "exact"]


def test_tree_function_decides_by_state():
    space = ar.Space()

    @space.function("half", variants=[lambda n: n // 2], state=lambda n: n, bounds=(0, 100))
    def half(n):
        return n

    config = dict(space.exact(), half_threshold_0=10, half_decision_0=0, half_decision_1=1)
    with space.use(config):
        assert [half(4), half(40)] == [4, 20]


def test_tune_finds_the_optimum_of_a_python_space():
    space, normalise, _ = pipeline_space()
    evaluate = evaluate_with(space, normalise)
    result = ar.tune(space=space, evaluate_fn=evaluate, accuracy_threshold=0.95,
                     time_budget=0, database=None, max_evals=400, seed=1, progress=False)
    # Enumerate the space: every threshold, every decision pair, k, normalise.
    best = None
    for k, t, d0, d1, n in itertools.product(range(4), range(0, 10), range(2), range(2),
                                             range(2)):
        c = {"top_k_knob_val": k, "scorer_threshold_0": t, "scorer_decision_0": d0,
             "scorer_decision_1": d1, "normalise_knob_val": n}
        time_ms, acc = evaluate(c)
        if acc >= 0.95 and (best is None or time_ms < best):
            best = time_ms
    assert result["best_accuracy"] >= 0.95
    assert result["best_time"] == pytest.approx(best)
    assert space.decide(result["best_config"], "top_k") == 2  # k = 1 fails every question
    # Positional, the same.
    again = ar.tune(space, evaluate, accuracy_threshold=0.95, time_budget=0, database=None,
                    max_evals=400, seed=1, progress=False)
    assert again["best_config"] == result["best_config"]


def test_plain_errors():
    space, _, _ = pipeline_space()
    with pytest.raises(TypeError, match="must be MLIR text .str. or an approx_runtime.Space, "
                                        "not dict"):
        ar.tune({"top_k": [1, 2]}, lambda c: (1.0, 1.0))
    with pytest.raises(TypeError, match="give the space to search once"):
        ar.tune(space.mlir(), lambda c: (1.0, 1.0), space=space)
    with pytest.raises(ValueError, match="declared twice"):
        space.static("top_k", [1, 2])
    with pytest.raises(ValueError, match="at least two values"):
        space.static("one", [1])
    with pytest.raises(TypeError, match="values must be a list"):
        space.static("text", "abc")
    with pytest.raises(ValueError, match="knob name 'a b'"):
        space.static("a b", [1, 2])
    with pytest.raises(ValueError, match="no room for 3 threshold"):
        space.tree("tight", [1, 2], bounds=(0, 3), thresholds=3)
    with pytest.raises(TypeError, match=r"bounds\[0\] must be a whole number, not float"):
        space.tree("frac", [1, 2], bounds=(0.5, 9))
    with pytest.raises(KeyError, match="no knob 'nosuch'"):
        space.decide(space.exact(), "nosuch")
    with pytest.raises(ValueError, match="is a decision tree: give its state"):
        space.decide(space.exact(), "scorer")
    with pytest.raises(ValueError, match="is static: it takes no state"):
        space.decide(space.exact(), "top_k", state=3)
    with pytest.raises(ValueError, match=r"config\['top_k_knob_val'\] = 7: the knob has 4 "
                                         r"values \(0 to 3\)"):
        space.decide(dict(space.exact(), top_k_knob_val=7), "top_k")
    with pytest.raises(KeyError, match="no parameter 'top_k_knob_val'"):
        with space.use({"other_knob_val": 0}):
            pass
    with pytest.raises(TypeError, match="config must be a dict"):
        space.decide([0, 1], "top_k")
    with pytest.raises(ValueError, match="give state and bounds together"):
        space.function("f", variants=[len], state=len)
    with pytest.raises(ValueError, match="the space has no knobs"):
        ar.Space().mlir()
