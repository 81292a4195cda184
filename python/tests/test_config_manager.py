"""MLIRConfigManager and TunableParam on real annotated MLIR."""

import pytest

import approx_runtime as ar


def test_parse_annotations(integrate_mlir):
    params = ar.MLIRConfigManager().parse_annotations(integrate_mlir)
    assert sorted(params) == [
        "integrate_decision_0", "integrate_decision_1", "integrate_decision_2",
        "integrate_threshold_0", "integrate_threshold_1"]
    t1 = params["integrate_threshold_1"]
    assert isinstance(t1, ar.TunableParam)
    assert (t1.lower, t1.upper, t1.current) == (5, 64, 8)
    assert (t1.param_type, t1.func_name, t1.index) == ("threshold", "integrate", 1)
    d2 = params["integrate_decision_2"]
    assert (d2.param_type, d2.current, d2.index) == ("decision", 16, 2)
    assert d2.values == [0, 2, 4, 8, 16, 32]
    assert (d2.lower, d2.upper) == (0, 32)


def test_apply_config_writes_the_values(integrate_mlir):
    m = ar.MLIRConfigManager()
    tuned = m.apply_config(integrate_mlir, {"integrate_threshold_0": 2,
                                            "integrate_decision_2": 32})
    params = m.parse_annotations(tuned)
    assert params["integrate_threshold_0"].current == 2
    assert params["integrate_decision_2"].current == 32
    assert params["integrate_threshold_1"].current == 8  # untouched
    assert m.default_config(tuned)["integrate_decision_2"] == 32


def test_validate_config(integrate_mlir):
    m = ar.MLIRConfigManager()
    params = m.parse_annotations(integrate_mlir)
    assert m.validate_config({"integrate_threshold_0": 3}, params)
    assert not m.validate_config({"integrate_threshold_0": 9}, params)  # > upper
    # ascending: threshold_1 (6) must stay above threshold_0
    assert m.validate_config({"integrate_threshold_0": 4,
                              "integrate_threshold_1": 5}, params)
    problems = m.config_problems({"integrate_decision_0": 3, "nope": 1}, params)
    assert "unknown parameter 'nope'" in problems
    assert any("integrate_decision_0" in p for p in problems)


def test_errors(integrate_mlir):
    m = ar.MLIRConfigManager()
    with pytest.raises(ValueError, match=r"bad\.mlir:1:\d+: error"):
        m.parse_annotations("func.func @f( {", filename="bad.mlir")
    with pytest.raises(ValueError, match="unknown parameter 'integrate_threshold_9'"):
        m.apply_config(integrate_mlir, {"integrate_threshold_9": 1})
    with pytest.raises(ValueError, match="outside"):
        m.apply_config(integrate_mlir, {"integrate_threshold_0": 100})
    with pytest.raises(TypeError, match="must be an int"):
        m.apply_config(integrate_mlir, {"integrate_threshold_0": "3"})
    with pytest.raises(TypeError, match="parse_annotations"):
        m.validate_config({}, {"x": 1})
    deep = "module {" * 2000 + "}" * 2000
    with pytest.raises(ValueError, match="nesting deeper than 1000"):
        m.parse_annotations(deep)


def test_misspelled_attribute_is_an_error():
    """MLIR's generic parser would drop the unknown key: the tools check it."""
    text = '''func.func @s(%x: i32) -> i32 { return %x : i32 }
func.func @f(%x: i32) { return }
"approx.util.annotation.decision_tree"() <{func_name = "f",
  transform_type = "loop_perforate", state_indices = array<i64: 0>,
  state_function = "s", thresholds = array<i32: 5>, decisions = array<i32: 0, 2>,
  thresholds_lower = array<i32: 0>}> : () -> ()
'''
    with pytest.raises(ValueError, match=r"k\.mlir:6:3: error: .*unknown attribute "
                                         r"'thresholds_lower' \(did you mean 'thresholds_lowers'\?\)"):
        ar.MLIRConfigManager().parse_annotations(text, filename="k.mlir")


def test_exact_config(integrate_mlir):
    exact = ar.MLIRConfigManager().exact_config(integrate_mlir)
    assert exact == {"integrate_threshold_0": 4, "integrate_threshold_1": 8,
                     "integrate_decision_0": 0, "integrate_decision_1": 0,
                     "integrate_decision_2": 0}
    static = '''func.func @f(%x: i32) { return }
"approx.util.annotation.static_transform"() <{func_name = "f",
  transform_type = "loop_perforate", knob_val = 2 : i32}> : () -> ()
'''
    assert ar.MLIRConfigManager().exact_config(static) == {"f_knob_val": 0}


def test_transform_script_choices_are_parameters(repo):
    """A transform script's tune.knob / tune.alternatives (issue 42): listed
    as "schedule" parameters next to the annotations', validated against
    their options, and written into the script's `selected`."""
    path = repo / "test" / "Tuner" / "Inputs" / "schedule.mlir"
    mlir = path.read_text()
    m = ar.MLIRConfigManager()
    params = m.parse_annotations(mlir, filename=str(path))
    assert sorted(params) == ["mean_stride", "other_knob_val"]
    s = params["mean_stride"]
    assert (s.param_type, s.values, s.current) == ("schedule", [0, 2, 4, 8], 0)
    assert m.exact_config(mlir)["mean_stride"] == 0  # the script's own choice
    assert not m.validate_config({"mean_stride": 3}, params)
    tuned = m.apply_config(mlir, {"mean_stride": 8, "other_knob_val": 2})
    assert 'transform.tune.knob<"mean_stride"> = 8' in tuned
    assert m.parse_annotations(tuned)["mean_stride"].current == 8
    with pytest.raises(ValueError, match="not one of"):
        m.apply_config(mlir, {"mean_stride": 3})
    clash = (repo / "test" / "Tuner" / "Inputs" / "schedule-clash.mlir").read_text()
    with pytest.raises(ValueError, match="tunable name 'f_knob_val' is also a parameter"):
        m.parse_annotations(clash)
