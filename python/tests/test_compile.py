"""ar.compile: approx-opt over MLIR text, the seed's pipeline and
environment variables."""

import os
import stat

import pytest

import approx_runtime as ar


def test_pass_pipeline_is_the_seeds():
    assert ar.PASS_PIPELINE == ("emit-approx", "emit-management", "config-approx",
                                "transform-approx", "finalize-approx")


def test_compile_lowers_every_knob(integrate_mlir):
    out = ar.compile(integrate_mlir, passes=ar.PASS_PIPELINE)
    assert "approx." not in out
    assert "@integrate" in out and "@load_level" in out
    # the decision tree's thresholds are compared with the state
    assert "arith.cmpi" in out and "arith.constant 4 : i32" in out


def test_config_is_applied(integrate_mlir):
    exact = ar.compile(integrate_mlir)
    assert "arith.constant 3 : i32" not in exact
    assert "arith.constant 32 : i32" not in exact
    out = ar.compile(integrate_mlir, config={"integrate_threshold_0": 3,
                                             "integrate_decision_2": 32})
    assert "arith.constant 3 : i32" in out
    assert "arith.constant 32 : i32" in out


@pytest.mark.parametrize("value", [2.9, "3", True, None])
def test_config_values_are_checked_as_apply_config_does(integrate_mlir, value):
    """compile(config=) takes what apply_config takes (2.9, "3" and True
    were silently coerced to 2, 3 and 1)."""
    with pytest.raises(TypeError, match="configuration value of "
                                        "'integrate_threshold_0' must be an int"):
        ar.compile(integrate_mlir, config={"integrate_threshold_0": value})
    with pytest.raises(TypeError, match="must be an int"):
        ar.MLIRConfigManager().apply_config(integrate_mlir,
                                            {"integrate_threshold_0": value})


def test_pipeline_as_text_and_partial(integrate_mlir):
    out = ar.compile(integrate_mlir, passes="emit-approx, emit-management")
    assert "approx.knob" in out


def test_errors_carry_locations(integrate_mlir):
    with pytest.raises(ar.CompileError, match=r"<stdin>:2:\d+: error"):
        ar.compile("func.func @f() {\n  %x = arith.constant : i32\n}\n")
    with pytest.raises(ar.CompileError, match="no-such-pass"):
        ar.compile(integrate_mlir, passes=["no-such-pass"])
    with pytest.raises(TypeError, match="WorkloadType"):
        ar.compile(integrate_mlir, workload="cpp")


def test_environment_variables(integrate_mlir, tools, tmp_path, monkeypatch):
    # APPROX_OPT_CPP / APPROX_OPT_ML choose the tool per workload, before
    # APPROX_OPT_PATH; a wrapper proves which one ran.
    log = tmp_path / "log"
    wrapper = tmp_path / "approx-opt-cpp"
    wrapper.write_text(f'#!/bin/sh\necho cpp >> {log}\nexec {tools}/approx-opt "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("APPROX_OPT_CPP", str(wrapper))
    monkeypatch.setenv("APPROX_OPT_PATH", str(tools / "approx-opt"))
    ar.compile(integrate_mlir, workload=ar.WorkloadType.CPP)
    ar.compile(integrate_mlir, workload=ar.WorkloadType.ML)
    assert log.read_text() == "cpp\n"
    assert ar.approx_opt(ar.WorkloadType.ML) == str(tools / "approx-opt")
    monkeypatch.setenv("APPROX_OPT_ML", str(tmp_path / "missing"))
    with pytest.raises(ar.CompileError, match="APPROX_OPT_ML=.*not an executable"):
        ar.compile(integrate_mlir)
