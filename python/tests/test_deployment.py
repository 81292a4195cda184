"""Saved deployments (ar.save_deployment / ar.load_deployment) and native
libraries reloaded by path: a tuned configuration saved with its build,
source and measurements, reloaded and run on both backends; another space,
an existing directory, a missing build, a damaged deployment.json."""

import json
import os

import numpy as np
import pytest

jnp = pytest.importorskip("jax.numpy")

import approx_runtime as ar  # noqa: E402


def get_state(n):
    return n


@ar.Knob(decision_tree=ar.DecisionTree(
    state_function=get_state, state_indices=[0], thresholds=[100],
    thresholds_lower=[0], thresholds_upper=[1000], decisions=[0, 2],
    decision_values=[0, 2, 4], transform_type="loop_perforate"))
def kernel(n, data):
    return jnp.sum(data[:n])


@pytest.fixture(scope="module")
def mlir():
    text = ar.export_to_mlir(kernel, 100, jnp.zeros(1000))
    return ar.inject_annotations(text, "kernel", ar.get_config(kernel))


DATA = np.arange(1000, dtype=np.float32)
# The slice is fixed when JAX traces (100 elements); n is the state:
# perforated by 4 from the state 50 on (every 4th element, rescaled,
# DESIGN §4), exact below it.
CONFIG = {"kernel_threshold_0": 50, "kernel_decision_0": 0, "kernel_decision_1": 4}


def expected(n):
    return DATA[:100].sum() if n < 50 else DATA[:100:4].sum() * 4


@pytest.mark.parametrize("backend", ["native", "llvm-cpu"])
def test_save_and_reload(tmp_path, mlir, backend):
    result = {"best_config": CONFIG, "best_accuracy": 0.97, "best_time": 1.5,
              "speedup": 3.2, "best_certified": True}
    path = ar.save_deployment(str(tmp_path / "d"), mlir, result=result, backend=backend,
                              extra={"note": "test"})
    build = "module.so" if backend == "native" else "module.vmfb"
    assert sorted(os.listdir(path)) == sorted(["deployment.json", "module.mlir", build])
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".")]  # no leftovers
    d = ar.load_deployment(path, space=mlir)
    assert (d.backend, d.config, d.qos, d.time_ms, d.speedup, d.certified) == \
        (backend, CONFIG, 0.97, 1.5, 3.2, True)
    assert d.extra == {"note": "test"}
    for n in (20, 100):
        assert float(np.asarray(d.module.kernel(n, DATA))) == pytest.approx(expected(n))


def test_refusals_and_repairs(tmp_path, mlir, capfd):
    path = ar.save_deployment(str(tmp_path / "d"), mlir, CONFIG, backend="native")
    # Another space: a threshold range of its own.
    other = mlir.replace("thresholds_uppers = array<i32: 1000>",
                         "thresholds_uppers = array<i32: 900>")
    assert other != mlir
    with pytest.raises(ValueError, match="tuned on another space"):
        ar.load_deployment(path, space=other)
    with pytest.raises(FileExistsError, match="overwrite=True"):
        ar.save_deployment(path, mlir, CONFIG, backend="native")
    exact = {**CONFIG, "kernel_decision_1": 0}
    ar.save_deployment(path, mlir, exact, backend="native", overwrite=True)
    assert ar.load_deployment(path).config == exact
    # A configuration the MLIR rejects: nothing is written.
    with pytest.raises(ValueError, match="invalid configuration"):
        ar.save_deployment(str(tmp_path / "bad"), mlir, {**CONFIG, "kernel_decision_1": 3},
                           backend="native")
    assert not os.path.exists(tmp_path / "bad")
    # A missing build is rebuilt from module.mlir.
    os.remove(os.path.join(path, "module.so"))
    d = ar.load_deployment(path)
    assert "rebuilding it from module.mlir" in capfd.readouterr().err
    assert os.path.exists(os.path.join(path, "module.so"))
    assert float(np.asarray(d.module.kernel(100, DATA))) == pytest.approx(DATA[:100].sum())
    # Damaged or foreign metadata.
    meta = os.path.join(path, "deployment.json")
    with open(meta, "w") as f:
        f.write('{"format": 1,\n  "backend": ')
    with pytest.raises(ValueError, match=r"deployment.json:2: not JSON"):
        ar.load_deployment(path)
    with open(meta, "w") as f:
        json.dump({"format": 7}, f)
    with pytest.raises(ValueError, match="format 7, this version reads format 1"):
        ar.load_deployment(path)
    with pytest.raises(FileNotFoundError, match="not a deployment"):
        ar.load_deployment(str(tmp_path))
    with pytest.raises(TypeError, match="needs a configuration"):
        ar.save_deployment(str(tmp_path / "none"), mlir)


def test_native_library_reloaded_by_path(tmp_path, mlir):
    configured = ar.MLIRConfigManager().apply_config(mlir, CONFIG)
    lib = str(tmp_path / "kernel.so")
    ar.compile_to_iree(configured, backend="native", output=lib)
    with pytest.raises(ValueError, match="needs the MLIR it was built from"):
        ar.load_module(lib, backend="native")
    module = ar.load_module(lib, backend="native", mlir=configured)
    assert float(np.asarray(module.kernel(100, DATA))) == pytest.approx(expected(100))
    with pytest.raises(FileNotFoundError, match="no such native library"):
        ar.load_module(str(tmp_path / "nope.so"), backend="native", mlir=configured)
