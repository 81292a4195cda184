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

Deployment backends (default: $APPROX_BACKEND, else llvm-cpu):
- `llvm-cpu`: IREE (iree-base-compiler / iree-base-runtime from PyPI): the
  MLIR text goes to iree-compile for the host CPU and loads into IREE's
  local-task runtime; functions return IREE device arrays (numpy-compatible).
- `native`: the project's own LLVM pipeline (approx-compile: bufferization,
  register-blocked vectorized matmuls) to a shared library, called through
  ctypes; functions return numpy arrays.
There is no GPU backend on these machines. Python ints among the example
arguments are program state (static while tracing, i32 parameters of the
exported function).
"""

from __future__ import annotations

import os
import re
import weakref
from dataclasses import dataclass
from typing import Optional

from ._files import write_atomically
from .annotations import get_config

BACKENDS = ("llvm-cpu", "native")


def _unwrap(fn):
    return getattr(fn, "__wrapped__", fn)


def export_to_mlir(fn, *args, name: Optional[str] = None,
                   variants: Optional[dict] = None) -> str:
    """Linalg-on-tensors MLIR text of the JAX function `fn` traced on
    `args` (arrays, jax.ShapeDtypeStruct, or ints: state parameters).
    `variants` ({k: function}, k >= 1) are exported beside it as
    `approx_<name>_<k>`, the approximate versions a func_substitute knob
    chooses among; they take the same arguments."""
    from approx_ml import export_to_mlir as export
    from approx_ml.export import symbol_name
    name = symbol_name(name or getattr(_unwrap(fn), "__name__", None), fn)
    mlir = export(_unwrap(fn), *args, name=name)
    for k, variant in sorted((variants or {}).items()):
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"variants: keys are knob values >= 1, not {k!r}")
        vname = f"approx_{name}_{k}"
        text = export(_unwrap(variant), *args, name=vname)
        # The variant's private helpers (nested jits) get names of its own.
        for helper in set(re.findall(r"func\.func private @([\w.$]+)", text)):
            text = re.sub(rf"@{re.escape(helper)}\b", f"@{vname}__{helper}", text)
        body = text.split("\n", 1)[1].rsplit("}", 1)[0]  # inside `module {`
        head, tail = mlir.rstrip().rsplit("}", 1)
        mlir = head + body + "}" + tail + "\n"
    return mlir


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
    """A build of the `native` backend: a shared library and the MLIR it
    came from (for its functions' signatures)."""
    path: str
    mlir: str
    backend: str = "native"


def compile_to_iree(mlir: str, backend: Optional[str] = None, *,
                    output: Optional[str] = None):
    """Deployable code for (annotated or compiled) linalg MLIR: for
    `llvm-cpu`, IREE's VM flatbuffer (bytes; also written to `output` when
    given); for `native`, a CompiledModule (its shared library at `output`,
    default a temporary file). Knobs still in the text are lowered first
    (the approx passes, as ar.compile). Raises CompileError with the
    compiler's located diagnostics."""
    from .compiler import PASS_PIPELINE, CompileError, compile as approx_compile
    backend = _backend(backend)
    if backend == "llvm-cpu":
        import iree.compiler as ic
        # IREE knows no approx ops: knobs are lowered first (the seed's
        # ar.compile step; on compiled text it changes nothing), and erfc
        # (GELU), which IREE cannot lower, becomes a polynomial; index_switch
        # ops become scf.if chains (IREE 3.13 breaks those with tensor results).
        lowered = approx_compile(str(mlir),
                                 passes=PASS_PIPELINE + ("approx-polynomial-erf",
                                                         "approx-index-switch-to-if"))
        try:
            vmfb = ic.compile_str(lowered, target_backends=["llvm-cpu"],
                                  extra_args=["--iree-llvmcpu-target-cpu=host"])
        except ic.CompilerToolError as e:
            text = str(e)
            if "Diagnostics:" in text:
                text = text.split("Diagnostics:", 1)[1].split("\n\nInvoked with:")[0]
            raise CompileError("iree-compile: " + text.strip()) from None
        if output:
            write_atomically(output, vmfb)
        return vmfb
    from approx_ml.export import build_library
    from approx_ml.native import CompileError as MLCompileError
    temporary = output is None
    try:
        output = build_library(str(mlir), library=output)
    except MLCompileError as e:
        raise CompileError(str(e)) from None
    built = CompiledModule(output, str(mlir))
    if temporary:  # removed with the CompiledModule (or at exit)
        weakref.finalize(built, _remove_quietly, output)
    return built


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


class LoadedModule:
    """A deployed module: its functions as attributes and items
    (`module.f(...)`, `module["f"](...)`). It also has `.module` (itself)
    and unpacks as `(module, context)`, so the seed README's other form,
    `modules, _ = ar.load_module(...); modules.module["f"](...)`, works too.
    `context` is IREE's SystemContext (llvm-cpu) or None (native); `device`
    is IREE's device, for uploading arrays once (`iree.runtime.asdevicearray`)."""

    def __init__(self, functions, backend: str, context=None, device=None):
        self._functions = functions
        self.backend = backend
        self.context = context
        self.device = device

    @property
    def module(self) -> "LoadedModule":
        return self

    def _function(self, name):
        fn = self._functions[name]

        def call(*args):
            return fn(*_call_args(args))
        call.__name__ = name
        return call

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._function(name)
        except KeyError:
            raise AttributeError(f"the module has no function '{name}'") from None

    def __getitem__(self, name):
        try:
            return self._function(name)
        except KeyError:
            raise KeyError(f"the module has no function '{name}'") from None

    def __iter__(self):
        return iter((self, self.context))


def _call_args(args):
    """The exported function's arguments from a call's, as JAX traced them
    at export: pytrees flattened into their leaves (in JAX's order), arrays
    of 64-bit types cast to the 32-bit ones JAX computes in unless its x64
    mode is on (so native and IREE builds take what the JAX function took;
    the native backend used to cast silently and IREE to refuse). Python
    ints stay ints: state parameters."""
    import numpy as np
    try:
        import jax
        leaves = jax.tree_util.tree_leaves(list(args))
        x64 = bool(jax.config.jax_enable_x64)
    except ImportError:
        leaves, x64 = list(args), False
    narrow = {} if x64 else {np.dtype(np.float64): np.float32, np.dtype(np.int64): np.int32,
                             np.dtype(np.uint64): np.uint32,
                             np.dtype(np.complex128): np.complex64}
    out = []
    for a in leaves:
        if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
            out.append(int(a))
            continue
        arr = np.asarray(a)
        out.append(arr.astype(narrow[arr.dtype]) if arr.dtype in narrow else arr)
    return out


def load_module(module, backend: Optional[str] = None, *,
                mlir: Optional[str] = None) -> LoadedModule:
    """Loads a build of compile_to_iree: its result, a .vmfb file's path,
    or a native library's path with `mlir=` (the MLIR it was built from,
    for its functions' signatures; a saved deployment keeps both:
    ar.load_deployment)."""
    if isinstance(module, str) and backend is not None and _backend(backend) == "native":
        if mlir is None:
            raise ValueError(f"{module}: a native library needs the MLIR it was built from "
                             "for its functions' signatures: load_module(path, "
                             "backend='native', mlir=text), or save it with "
                             "ar.save_deployment and load that")
        if not os.path.isfile(module):
            raise FileNotFoundError(f"{module}: no such native library")
        module = CompiledModule(module, str(mlir))
    if isinstance(module, CompiledModule):
        if backend is not None and _backend(backend) != "native":
            raise ValueError(f"module was built for 'native', not '{backend}'")
        from approx_ml.export import signatures
        from approx_ml.native import NativeModule
        native = NativeModule(module.path, signatures(module.mlir))
        return LoadedModule(native.functions, "native")
    if isinstance(module, str) and os.path.isfile(module):
        with open(module, "rb") as f:
            module = f.read()
    if not isinstance(module, (bytes, bytearray, memoryview)):
        raise TypeError("load_module takes the result of compile_to_iree (or "
                        "a .vmfb file's path)")
    if _backend(backend) != "llvm-cpu":
        raise ValueError(f"a VM flatbuffer runs on 'llvm-cpu', not '{backend}'")
    import iree.runtime as rt
    config = rt.Config("local-task")
    context = rt.SystemContext(config=config)
    context.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, bytes(module)))
    return LoadedModule(context.modules.module, "llvm-cpu", context, config.device)


__all__ = ["export_to_mlir", "export_with_config", "inject_annotations",
           "compile_to_iree", "load_module", "CompiledModule", "LoadedModule",
           "BACKENDS"]
