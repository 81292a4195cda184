"""The seed's JAX functions: `export_to_mlir`, `export_with_config`,
`inject_annotations`, `compile_to_iree` and `load_module`, over the
project's ML route (python/approx_ml, docs/ml.md): JAX -> StableHLO ->
linalg on tensors (our importer) -> approx passes -> native code.

    mlir = ar.export_to_mlir(my_kernel, 100, jnp.zeros(1000))
    mlir = ar.inject_annotations(mlir, "my_kernel", ar.get_config(my_kernel))
    mlir = ar.compile(mlir)
    vmfb = ar.compile_to_iree(mlir, backend="llvm-cpu")
    module = ar.load_module(vmfb, backend="llvm-cpu")
    result = module.my_kernel(n, data)

Deployment: the backend is `llvm-cpu` (default: $APPROX_BACKEND, else
llvm-cpu), the machine's CPU, compiled by the project's own LLVM pipeline
(approx-compile); there is no GPU backend here. Python ints among the
example arguments are program state (static while tracing, i32 parameters
of the exported function).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import Optional

from .annotations import get_config

BACKENDS = ("llvm-cpu",)


def _unwrap(fn):
    return getattr(fn, "__wrapped__", fn)


def export_to_mlir(fn, *args, name: Optional[str] = None) -> str:
    """Linalg-on-tensors MLIR text of the JAX function `fn` traced on
    `args` (arrays, jax.ShapeDtypeStruct, or ints: state parameters)."""
    from approx_ml import export_to_mlir as export
    return export(_unwrap(fn), *args, name=name)


def inject_annotations(mlir: str, func_name: str, config: dict) -> str:
    """`mlir` with the knob `config` ({"decision_tree": ar.DecisionTree,
    ...}, e.g. ar.get_config(fn)) on function `func_name`; a Python state
    function is exported with it."""
    from approx_ml import inject_annotations as inject
    from . import _core
    if not isinstance(config, dict):
        raise TypeError("config must be a dict such as ar.get_config(fn)")
    return _core.verify(inject(mlir, func_name, config))


def export_with_config(fn, args, config: Optional[dict] = None, *,
                       name: Optional[str] = None) -> str:
    """Export and annotate in one call, without decorating `fn`: `args` is
    the tuple of example arguments, `config` the knob
    ({"decision_tree": ...}; default: the function's Knob)."""
    if not isinstance(args, (tuple, list)):
        raise TypeError("args must be a tuple of example arguments")
    if config is None:
        config = get_config(fn)
    name = name or _unwrap(fn).__name__
    return inject_annotations(export_to_mlir(fn, *args, name=name), name, config)


def _backend(backend: Optional[str]) -> str:
    backend = backend or os.environ.get("APPROX_BACKEND") or "llvm-cpu"
    if backend not in BACKENDS:
        raise ValueError(f"backend '{backend}' is not available here (no GPU "
                         f"runtime): use one of {', '.join(BACKENDS)}")
    return backend


@dataclass
class CompiledModule:
    """A deployable build: a shared library and its functions' signatures."""
    path: str
    mlir: str
    backend: str


def compile_to_iree(mlir: str, backend: Optional[str] = None, *,
                    output: Optional[str] = None) -> CompiledModule:
    """Native code for (annotated or compiled) linalg MLIR, for
    `backend`; `output` names the shared library (default: a temporary
    file). Raises CompileError with approx-compile's diagnostics."""
    from approx_ml import export as ml_export
    from approx_ml.native import CompileError as MLCompileError
    from .compiler import CompileError
    backend = _backend(backend)
    if output is None:
        fd, output = tempfile.mkstemp(prefix="approx-module-", suffix=".so")
        os.close(fd)
    flags = [f"--Xclang-driver={f}" for f in ml_export.CLANG_FLAGS]
    try:
        from approx_ml.native import compile_shared
        compile_shared(str(mlir), output, extra=flags)
    except MLCompileError as e:
        raise CompileError(str(e)) from None
    return CompiledModule(output, str(mlir), backend)


def load_module(module: CompiledModule, backend: Optional[str] = None):
    """Loads a build of compile_to_iree: functions are attributes (and
    items) taking and returning numpy arrays."""
    from approx_ml.export import signatures
    from approx_ml.native import NativeModule
    if not isinstance(module, CompiledModule):
        raise TypeError("load_module takes the result of compile_to_iree")
    if backend is not None and _backend(backend) != module.backend:
        raise ValueError(f"module was built for '{module.backend}', not "
                         f"'{backend}'")
    return NativeModule(module.path, signatures(module.mlir))


__all__ = ["export_to_mlir", "export_with_config", "inject_annotations",
           "compile_to_iree", "load_module", "CompiledModule", "BACKENDS"]
