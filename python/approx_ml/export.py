"""JAX functions to annotated linalg MLIR and native code.

    mlir = export_to_mlir(my_kernel, 100, jnp.zeros(1000))
    mlir = inject_annotations(mlir, "my_kernel", {"decision_tree": {...}})
    module = compile_module(mlir)
    module.my_kernel(100, data)

Python ints among the example arguments are the program state: they stay
static while JAX traces (so `data[:n]` works) and become `i32` parameters of
the exported function, which state functions of decision trees read.
"""

from __future__ import annotations

import os
import re
import tempfile

import numpy as np

from .native import NativeModule, compile_shared
from .stablehlo_import import TType, stablehlo_to_linalg


def _lower(fn, args, name):
    import jax

    ints = [i for i, a in enumerate(args) if isinstance(a, (int, np.integer))
            and not isinstance(a, bool)]

    def wrapped(*xs):
        return fn(*[args[i] if i in ints else xs[i] for i in range(len(args))])
    wrapped.__name__ = name
    examples = [np.int32(a) if i in ints else a for i, a in enumerate(args)]
    lowered = jax.jit(wrapped, keep_unused=True).lower(*examples)
    return lowered.compiler_ir("stablehlo"), ints


def export_to_mlir(fn, *args, name: str | None = None) -> str:
    """Linalg-on-tensors MLIR text of `fn` traced on `args` (arrays or
    jax.ShapeDtypeStruct; ints are state parameters, see the module doc)."""
    name = symbol_name(name or getattr(fn, "__name__", None), fn)
    module, ints = _lower(fn, args, name)
    return stablehlo_to_linalg(module, rename={"main": name},
                               scalar_args={"main": ints})


_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def symbol_name(name, fn=None) -> str:
    """`name` if it is a bare MLIR symbol name (what @name may spell
    without quotes), else ValueError: a lambda's "<lambda>" once became
    @<lambda>, MLIR that failed only later, far from its cause."""
    if not isinstance(name, str) or not _SYMBOL.fullmatch(name):
        what = f" of {fn!r}" if fn is not None else ""
        raise ValueError(f"the function name {name!r}{what} is not an MLIR "
                         "symbol name (letters, digits, _ $ ., not starting "
                         "with a digit): pass name='...'")
    return name


def _field(obj, key, default=None):
    if isinstance(obj, dict):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _state_function(fn, count: int, name: str) -> str:
    """A Python state function (ints -> int) as an MLIR (i32...) -> i32."""
    import jax

    lowered = jax.jit(fn, keep_unused=True).lower(*[np.int32(0)] * count)
    module = lowered.compiler_ir("stablehlo")
    text = stablehlo_to_linalg(module, rename={"main": name},
                               scalar_args={"main": list(range(count))},
                               scalar_results={"main"}, c_interface=False)
    body = text.split("\n", 1)[1].rsplit("}", 1)[0]
    return body.replace(f"func.func @{name}", f"func.func private @{name}", 1)


def annotation_text(func_name: str, config: dict) -> tuple:
    """(extra functions, annotation ops) for the knob `config` of
    `func_name` ({"decision_tree": ...} or {"static_transform": ...}, with
    an optional "safety_contract"; dicts or objects with the seed's
    fields). A Python state function is exported as a private MLIR
    function; the ops' text comes from approx_runtime."""
    from approx_runtime._annotation_text import annotation_ops

    dt = config.get("decision_tree")
    state = _field(dt, "state_function") if dt else None
    extra, state_name = "", None
    if callable(state):
        state_name = f"approx_state_{func_name}"
        extra = _state_function(state, len(list(_field(dt, "state_indices", [0]))),
                                state_name)
    return extra, annotation_ops(func_name, config, state_name)


def inject_annotations(mlir: str, func_name: str, config: dict) -> str:
    """`mlir` with the knob `config` on `func_name` (and its state function)
    appended to the module."""
    if f"@{func_name}(" not in mlir:
        raise ValueError(f"no function @{func_name} in the module")
    extra, annotation = annotation_text(func_name, config)
    head, tail = mlir.rstrip().rsplit("}", 1)
    annotation = "\n".join("  " + op for op in annotation.split("\n"))
    return head + extra + annotation + "\n}" + tail + "\n"


# Results print as `-> (t1, t2)` or, one of them, as `-> t` (approx-opt's
# printer).
_FUNC = re.compile(r"func\.func @(\w+)\((.*?)\) -> (?:\((.*?)\)|(\S+)) "
                   r"attributes \{llvm\.emit_c_interface\}")
_TENSOR = re.compile(r"tensor<((?:\d+x)*)(\w+)>")


def _type(text: str):
    text = text.split("{")[0].strip()
    m = _TENSOR.fullmatch(text)
    if not m:
        return text  # a scalar element type
    dims = tuple(int(d) for d in m.group(1).split("x") if d)
    return TType(dims, m.group(2))


def signatures(mlir: str) -> dict:
    """name -> (parameter types, result types) of the module's C-interface
    functions."""
    out = {}
    for m in _FUNC.finditer(mlir):
        params = [p.split(":", 1)[1] for p in re.split(r",\s*(?=%arg)", m.group(2))
                  if p.strip()]
        results = [r for r in (m.group(3) if m.group(3) is not None
                               else m.group(4)).split(", ") if r]
        out[m.group(1)] = ([_type(p) for p in params], [_type(r) for r in results])
    return out


# clang -O3 fully unrolls the many small static loops of tensor code, which
# multiplies compile time (25 s instead of 0.75 s for one MiniLM layer) for
# no gain: the vectorizer interleaves on its own. The library is built for
# the machine it is loaded on (as XLA's JIT is): AVX2/AVX-512 and FMA for
# the vectorized loops, F16C for f16 conversions.
CLANG_FLAGS = ["-fno-unroll-loops", "-march=native"]


def build_library(mlir: str, *, config: str | None = None,
                  runtime_table: bool = False, exact: bool = False,
                  library: str | None = None) -> str:
    """The shared library (path; default a temporary file, which the
    caller removes) of annotated linalg MLIR through the approx pipeline
    (approx-compile -shared). A failed build leaves no temporary file."""
    temporary = library is None
    if temporary:
        fd, library = tempfile.mkstemp(prefix="approx-ml-", suffix=".so")
        os.close(fd)
    try:
        return compile_shared(str(mlir), library, config=config,
                              runtime_table=runtime_table, exact=exact,
                              extra=[f"--Xclang-driver={f}" for f in CLANG_FLAGS])
    except BaseException:
        if temporary:
            os.unlink(library)
        raise


def compile_module(mlir: str, *, config: str | None = None,
                   runtime_table: bool = False, exact: bool = False,
                   library: str | None = None) -> NativeModule:
    """Native code for annotated linalg MLIR through the approx pipeline
    (approx-compile -shared), loaded; functions take numpy arrays."""
    temporary = library is None
    library = build_library(mlir, config=config, runtime_table=runtime_table,
                            exact=exact, library=library)
    try:
        return NativeModule(library, signatures(str(mlir)))
    finally:
        if temporary:  # loaded: the mapping outlives the file's name
            os.unlink(library)


__all__ = ["export_to_mlir", "inject_annotations", "annotation_text",
           "build_library", "compile_module", "signatures"]
