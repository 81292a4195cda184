"""The seed README's JAX usage, end to end on the CPU: export, inject,
compile, deploy, run; checked against numpy (XLA's agreement with our
native code is tested in test/ML)."""

import numpy as np
import pytest

jnp = pytest.importorskip("jax.numpy")

import approx_runtime as ar  # noqa: E402


def get_state(n):
    return n


@ar.Knob(decision_tree=ar.DecisionTree(
    state_function=get_state,
    state_indices=[0],
    thresholds=[100],
    decisions=[0, 2],
    transform_type="loop_perforate"
))
def my_kernel(n, data):
    return jnp.sum(data[:n])


def test_seed_usage(tmp_path):
    # 2. Export to MLIR
    mlir = ar.export_to_mlir(my_kernel, 100, jnp.zeros(1000))
    # 3. Inject annotations
    mlir = ar.inject_annotations(mlir, "my_kernel", ar.get_config(my_kernel))
    params = ar.MLIRConfigManager().parse_annotations(mlir)
    assert params["my_kernel_threshold_0"].current == 100
    # 4. Compile with approx-opt
    mlir = ar.compile(mlir)
    assert "approx." not in mlir
    # 5. Deploy
    vmfb = ar.compile_to_iree(mlir, backend="llvm-cpu")
    module = ar.load_module(vmfb, backend="llvm-cpu")
    data = np.arange(1000, dtype=np.float32)
    # n is the state (the slice is fixed when tracing): below the
    # threshold the sum is exact; from 100 on, every 2nd element is summed
    # and rescaled by n / ceil(n / 2) (DESIGN §4)
    exact = data[:100].sum()
    assert module.my_kernel(50, data) == pytest.approx(exact)
    approx = module.my_kernel(100, data)
    assert approx == pytest.approx(data[:100:2].sum() * 2)
    assert abs(approx - exact) / exact < 0.02


def test_export_with_config_and_backends(monkeypatch):
    config = {
        "decision_tree": ar.DecisionTree(
            state_function=get_state,
            state_indices=[0],
            thresholds=[100],
            decisions=[0, 1],
            transform_type="loop_perforate",
        )
    }
    mlir = ar.export_with_config(my_kernel, (100, np.zeros(1000, np.float32)), config)
    assert ar.MLIRConfigManager().default_config(mlir)["my_kernel_decision_1"] == 1
    with pytest.raises(ValueError, match="backend 'cuda' is not available"):
        ar.compile_to_iree(mlir, backend="cuda")
    monkeypatch.setenv("APPROX_BACKEND", "cuda")
    with pytest.raises(ValueError, match="backend 'cuda'"):
        ar.compile_to_iree(mlir)
    monkeypatch.setenv("APPROX_BACKEND", "llvm-cpu")
    module = ar.load_module(ar.compile_to_iree(mlir))
    data = np.ones(1000, np.float32)
    assert module["my_kernel"](200, data) == pytest.approx(100)


def test_errors():
    with pytest.raises(ValueError, match="no function @other"):
        ar.inject_annotations(ar.export_to_mlir(my_kernel, 100, jnp.zeros(10)),
                              "other", ar.get_config(my_kernel))
    with pytest.raises(ar.CompileError, match="error"):
        ar.compile_to_iree("func.func @f( {")
    with pytest.raises(TypeError, match="compile_to_iree"):
        ar.load_module("/tmp/x.so")
