"""The seed README's JAX usage, end to end on the CPU: export, inject,
compile, deploy, run; checked against numpy (XLA's agreement with our
native code is tested in test/ML)."""

import os

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


@pytest.mark.parametrize("backend", ["llvm-cpu", "native"])
def test_seed_usage(backend):
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
    vmfb = ar.compile_to_iree(mlir, backend=backend)
    module = ar.load_module(vmfb, backend=backend)
    data = np.arange(1000, dtype=np.float32)
    # n is the state (the slice is fixed when tracing): below the
    # threshold the sum is exact; from 100 on, every 2nd element is summed
    # and rescaled by n / ceil(n / 2) (DESIGN §4)
    exact = data[:100].sum()
    assert float(np.asarray(module.my_kernel(50, data))) == pytest.approx(exact)
    approx = float(np.asarray(module.my_kernel(100, data)))
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
    import jax
    x_shape = jax.ShapeDtypeStruct((1000,), jnp.float32)
    mlir = ar.export_with_config(my_kernel, (100, x_shape), config)
    assert ar.MLIRConfigManager().default_config(mlir)["my_kernel_decision_1"] == 1
    with pytest.raises(ValueError, match="backend 'cuda' is not available"):
        ar.compile_to_iree(mlir, backend="cuda")
    monkeypatch.setenv("APPROX_BACKEND", "cuda")
    with pytest.raises(ValueError, match="backend 'cuda'"):
        ar.compile_to_iree(mlir)
    data = np.ones(1000, np.float32)
    for backend in ("llvm-cpu", "native"):
        monkeypatch.setenv("APPROX_BACKEND", backend)
        module = ar.load_module(ar.compile_to_iree(mlir))
        assert float(np.asarray(module["my_kernel"](200, data))) == pytest.approx(100)


def test_vmfb_file(tmp_path):
    mlir = ar.export_to_mlir(my_kernel, 100, jnp.zeros(1000))
    path = tmp_path / "k.vmfb"
    vmfb = ar.compile_to_iree(mlir, output=str(path))
    assert path.read_bytes() == vmfb
    module = ar.load_module(str(path))
    assert float(np.asarray(module.my_kernel(1, np.ones(1000, np.float32)))) == 100
    with pytest.raises(ValueError, match="runs on 'llvm-cpu', not 'native'"):
        ar.load_module(vmfb, backend="native")


def test_errors():
    with pytest.raises(ValueError, match="no function @other"):
        ar.inject_annotations(ar.export_to_mlir(my_kernel, 100, jnp.zeros(10)),
                              "other", ar.get_config(my_kernel))
    with pytest.raises(ar.CompileError, match=r"<stdin>:1:\d+: error"):
        ar.compile_to_iree("func.func @f( {")
    with pytest.raises(ar.CompileError, match=r"iree-compile: <stdin>:3:\d+: error: "
                                              r"Dialect `async' not found"):
        ar.compile_to_iree("func.func @f() {\n  %t = async.execute {\n    async.yield\n"
                           "  }\n  return\n}\n")
    with pytest.raises(ar.CompileError, match="error"):
        ar.compile_to_iree("func.func @f( {", backend="native")
    with pytest.raises(TypeError, match="compile_to_iree"):
        ar.load_module("/nonexistent/x.vmfb")


def test_iree_matches_xla_on_gelu_and_matmul():
    """A layer with GELU (erfc, which IREE cannot lower: compile_to_iree
    expands it) and a matmul, through IREE, against XLA."""
    import jax

    def layer(x, w):
        return jax.nn.gelu(x @ w, approximate=False)

    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 64), dtype=np.float32)
    w = rng.standard_normal((64, 32), dtype=np.float32) / 8
    module = ar.load_module(ar.compile_to_iree(ar.export_to_mlir(layer, x, w)))
    got = np.asarray(module.layer(x, w))
    want = np.asarray(jax.jit(layer)(x, w))
    assert np.max(np.abs(got - want)) < 1e-5


def test_seed_tuning_quick_start():
    """The seed README's auto-tuning Quick Start, as written (backend aside):
    apply_config -> compile -> compile_to_iree -> load_module per
    configuration, timed and scored in Python."""
    import time

    @ar.Knob(decision_tree=ar.DecisionTree(
        state_function=get_state, state_indices=[0], thresholds=[100],
        decisions=[0, 2], transform_type="loop_perforate",
        thresholds_lower=[0], thresholds_upper=[200], decision_values=[0, 2, 4]))
    def kernel(n, data):
        return jnp.sum(data[:n])

    mlir_source = ar.inject_annotations(
        ar.export_to_mlir(kernel, 100, jnp.zeros(1000)), "kernel", ar.get_config(kernel))
    manager = ar.MLIRConfigManager()
    test_input = np.linspace(0, 1, 1000, dtype=np.float32)
    ground_truth = float(test_input[:100].sum())

    def compute_error(result, truth):
        return abs(float(np.asarray(result)) - truth) / truth

    def evaluate(config: dict) -> tuple:
        modified_mlir = manager.apply_config(mlir_source, config)
        compiled = ar.compile(modified_mlir, passes=ar.PASS_PIPELINE)
        vmfb = ar.compile_to_iree(compiled, backend="llvm-cpu")
        modules, _ = ar.load_module(vmfb, backend="llvm-cpu")
        start = time.perf_counter()
        result = modules.module["kernel"](150, test_input)
        time_ms = (time.perf_counter() - start) * 1000
        accuracy = 1.0 / (1.0 + compute_error(result, ground_truth))
        return time_ms, accuracy

    result = ar.tune(mlir_source=mlir_source, evaluate_fn=evaluate,
                     accuracy_threshold=0.95, time_budget=120, database=None,
                     max_evals=8, progress=False)
    assert result["evaluations"] == 8 and result["failed"] == 0
    assert result["best_accuracy"] >= 0.95
    assert set(result["best_config"]) == {"kernel_threshold_0", "kernel_decision_0",
                                          "kernel_decision_1"}


def test_variants_and_the_tuning_example(tmp_path):
    """export_to_mlir(variants=...) for func_substitute, deployed through
    IREE (index_switch with tensor results), and the seed's
    `python -m approx_runtime.examples.example_with_tuning`."""
    import subprocess
    import sys

    def exact(s, x):
        return x * 2.0

    def half(s, x):
        return x * 2.0 + 1.0

    knob = ar.DecisionTree(state_function=get_state, state_indices=[0], thresholds=[5],
                           decisions=[0, 1], transform_type="func_substitute")
    x = np.ones(8, np.float32)
    mlir = ar.export_to_mlir(exact, 0, x, name="f", variants={1: half})
    mlir = ar.inject_annotations(mlir, "f", {"decision_tree": knob})
    for backend in ("llvm-cpu", "native"):
        module = ar.load_module(ar.compile_to_iree(mlir, backend=backend))
        assert np.asarray(module.f(1, x)).tolist() == [2.0] * 8
        assert np.asarray(module.f(7, x)).tolist() == [3.0] * 8
    with pytest.raises(ValueError, match="keys are knob values >= 1"):
        ar.export_to_mlir(exact, 0, x, variants={0: half})

    p = subprocess.run([sys.executable, "-m", "approx_runtime.examples.example_with_tuning",
                        "--tuning-time", "60", "--max-evals", "4", "--accuracy", "0.9",
                        "--database", str(tmp_path / "t.db")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert "best configuration: {'dense_decision_0'" in p.stdout
    assert "4 configurations evaluated" in p.stdout


def test_a_lambda_needs_a_name():
    """A lambda's name is not an MLIR symbol (export_to_mlir returned
    `@<lambda>`, which failed only later): a ValueError asks for name=."""
    with pytest.raises(ValueError, match="'<lambda>'.*not an MLIR symbol name"):
        ar.export_to_mlir(lambda x: x * 2, jnp.zeros(4))
    with pytest.raises(ValueError, match="not an MLIR symbol name"):
        ar.export_to_mlir(my_kernel, 100, jnp.zeros(8), name="two words")
    mlir = ar.export_to_mlir(lambda x: x * 2, jnp.zeros(4), name="double")
    assert "func.func @double(" in mlir


def test_native_builds_leave_no_library_behind(tmp_path, monkeypatch):
    """Every native build through the Python API made a temporary
    approx-ml-*.so that stayed (121 after an afternoon): a CompiledModule's
    goes with it, compile_module's once loaded, a failed build's at once."""
    import gc
    import tempfile
    from approx_ml import compile_module
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    mlir = ar.compile(ar.export_to_mlir(my_kernel, 100, jnp.zeros(1000)))
    built = ar.compile_to_iree(mlir, backend="native")
    module = ar.load_module(built, backend="native")
    assert [p.name for p in tmp_path.iterdir()] == [os.path.basename(built.path)]
    del built
    gc.collect()
    data = np.arange(1000, dtype=np.float32)
    assert float(np.asarray(module.my_kernel(50, data))) == pytest.approx(data[:100].sum())
    native = compile_module(mlir)
    assert float(np.asarray(native.my_kernel(50, data))) == pytest.approx(data[:100].sum())
    with pytest.raises(ar.CompileError):
        ar.compile_to_iree("func.func @f( {", backend="native")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("backend", ["llvm-cpu", "native"])
def test_calls_take_what_the_jax_function_took(backend):
    """Both backends take a call's arguments as JAX traced them at export:
    a pytree (here a dict and a tuple) flattened into its leaves, float64
    and int64 arrays narrowed to the 32-bit types JAX computed in (the
    native backend used to cast silently and IREE to refuse)."""
    def f(params, xs):
        return params["w"] * xs[0] + params["b"] + xs[1].astype(jnp.float32)

    w, b = np.float32(2), np.arange(4, dtype=np.float32)
    x0, x1 = np.ones(4, np.float32), np.arange(4, dtype=np.int32)
    mlir = ar.export_to_mlir(f, {"w": w, "b": b}, (x0, x1))
    module = ar.load_module(ar.compile_to_iree(ar.compile(mlir), backend=backend),
                            backend=backend)
    want = 2 * x0 + b + x1
    got = module.f({"w": w, "b": b}, (x0, x1))
    np.testing.assert_allclose(np.asarray(got), want)
    got64 = module.f({"w": np.float64(2), "b": b.astype(np.float64)},
                     (x0.astype(np.float64), x1.astype(np.int64)))
    np.testing.assert_allclose(np.asarray(got64), want)


def test_openmp_block_time_default():
    """approx_ml.native sets KMP_BLOCKTIME to 1 ms for libomp unless the
    user chose a value (benchmarks/results/ml/omp_blocktime.md)."""
    import subprocess
    import sys
    code = "import os, approx_ml.native; print(os.environ['KMP_BLOCKTIME'])"
    env = {k: v for k, v in os.environ.items() if k != "KMP_BLOCKTIME"}
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ["1"]
    env["KMP_BLOCKTIME"] = "7"
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ["7"]
