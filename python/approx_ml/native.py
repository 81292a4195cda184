"""Native code from linalg MLIR: approx-compile to a shared library, called
through ctypes with numpy arrays (memref descriptors, `_mlir_ciface_`)."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import math
import os
import shutil
import subprocess
import tempfile

import numpy as np

from .stablehlo_import import TType

_NP = {"f32": np.float32, "f64": np.float64, "f16": np.float16,
       "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
       "i64": np.int64}
_CT = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
       "i32": ctypes.c_int32, "i64": ctypes.c_int64}

# Native modules run their large loops on libomp's threads, which spin for
# KMP_BLOCKTIME after each loop (200 ms by default) and take the cores from
# the next XLA or IREE call in the process (issue 41; measured by
# benchmarks/ml/omp_blocktime.py). Unless the user chose a value, they spin
# for 1 ms: long enough to cover the gaps between one call's loops (at 0,
# every loop wakes sleeping threads: a GRU's 128 loops per call took 36 ms
# instead of 6.6 on a 2-core VM), short enough to be asleep by the next
# call. The variable serves libomp's start (this module is imported before
# a native library loads it), kmp_set_blocktime a libomp started earlier
# (it applies to the calling thread's loops).
_BLOCKTIME_MS = 1
_USER_BLOCKTIME = "KMP_BLOCKTIME" in os.environ
os.environ.setdefault("KMP_BLOCKTIME", str(_BLOCKTIME_MS))


def _quiet_omp() -> None:
    if _USER_BLOCKTIME:
        return
    try:
        ctypes.CDLL("libomp.so.5").kmp_set_blocktime(_BLOCKTIME_MS)
    except (OSError, AttributeError):
        pass  # no libomp loaded or loadable: nothing spins


class CompileError(Exception):
    """approx-compile failed; the message carries its diagnostics."""


def tool(name: str) -> str:
    """Path of one of our tools: $APPROX_BIN/<name>, else the build tree,
    else PATH."""
    for d in (os.environ.get("APPROX_BIN"),
              os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin")):
        if d and os.path.exists(os.path.join(d, name)):
            return os.path.abspath(os.path.join(d, name))
    found = shutil.which(name)
    if not found:
        raise CompileError(f"{name} not found (build the project or set APPROX_BIN)")
    return found


def compile_shared(mlir: str, out: str, *, config: str | None = None,
                   runtime_table: bool = False, exact: bool = False,
                   extra: list | None = None) -> str:
    """Compiles annotated MLIR text to the shared library `out` through the
    approx pipeline; returns `out`."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "module.mlir")
        with open(src, "w") as f:
            f.write(mlir)
        cmd = [tool("approx-compile"), src, "-shared", "-o", out]
        if config:
            cmd.append(f"--approx-config={config}")
        if runtime_table:
            cmd.append("--approx-runtime-table")
        if exact:
            cmd.append("--approx-exact")
        cmd += extra or []
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise CompileError(p.stderr.strip() or f"approx-compile exit {p.returncode}")
    return out


@functools.lru_cache(maxsize=None)
def _descriptor(rank: int):
    """The ctypes struct of a rank-`rank` memref descriptor (one class per
    rank: making it took most of a small call's time)."""
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank),
                   ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})


# The buffer a compiled function returns comes from the runtime's buffer
# cache (approx_runtime.h), linked into the library: it goes back there.
_FREE = "_mlir_memref_to_llvm_free"


def _row_major(shape) -> list:
    """Element strides of a contiguous row-major array of `shape`."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return strides[::-1]


class NativeFunction:
    """One `llvm.emit_c_interface` function: call it with numpy arrays
    (and ints for scalar parameters); returns numpy arrays."""

    def __init__(self, lib, name: str, params: list, results: list):
        self.name, self.params, self.results = name, params, results
        self.fn = getattr(lib, f"_mlir_ciface_{name}")
        self.fn.restype = None
        self._free = getattr(lib, _FREE)
        self._free.argtypes = [ctypes.c_void_p]
        self._free.restype = None
        self.result_types = [_descriptor(t.rank) for t in results]
        if len(results) == 1:
            self.out_type = self.result_types[0]
        else:
            self.out_type = type("Results", (ctypes.Structure,), {"_fields_": [
                (f"r{i}", t) for i, t in enumerate(self.result_types)]})

    def __call__(self, *args):
        if len(args) != len(self.params):
            raise TypeError(f"{self.name} takes {len(self.params)} arguments, "
                            f"got {len(args)}")
        keep, cargs = [], []
        for i, (a, t) in enumerate(zip(args, self.params)):
            if not isinstance(t, TType):
                cargs.append(_CT[t](int(a)))
                continue
            # (np.ascontiguousarray would make a 0-d array 1-d.)
            arr = np.asarray(a, dtype=_NP[t.elem])
            if not arr.flags.c_contiguous:
                arr = np.ascontiguousarray(arr)
            if arr.shape != t.shape:
                raise ValueError(f"{self.name}: argument {i} has shape "
                                 f"{arr.shape}, expected {t.shape}")
            keep.append(arr)
            d = _descriptor(t.rank)()
            d.allocated = d.aligned = arr.ctypes.data
            d.offset = 0
            if t.rank:
                for k in range(t.rank):
                    d.sizes[k] = arr.shape[k]
                    d.strides[k] = arr.strides[k] // arr.itemsize
            keep.append(d)
            cargs.append(ctypes.byref(d))
        out = self.out_type()
        self.fn(ctypes.byref(out), *cargs)
        descs = [out] if len(self.results) == 1 else \
            [getattr(out, f"r{i}") for i in range(len(self.results))]
        values = [self._read(d, t, self._free) for d, t in zip(descs, self.results)]
        return values[0] if len(values) == 1 else tuple(values)

    @staticmethod
    def _read(d, t: TType, free) -> np.ndarray:
        """Copies the result out of its memref and frees the buffer."""
        dtype = np.dtype(_NP[t.elem])
        base = d.aligned + d.offset * dtype.itemsize
        strides = [d.strides[k] for k in range(t.rank)]
        span = 1 + sum((n - 1) * s for n, s in zip(t.shape, strides))
        buf = (ctypes.c_char * (span * dtype.itemsize)).from_address(base)
        flat = np.frombuffer(buf, dtype=dtype, count=span)
        if span == math.prod(t.shape) and strides == _row_major(t.shape):
            value = flat.reshape(t.shape).copy()
        else:
            view = np.lib.stride_tricks.as_strided(
                flat, shape=t.shape, strides=[s * dtype.itemsize for s in strides])
            value = np.array(view, copy=True)
        free(d.allocated)
        return value


class NativeModule:
    """A compiled module: one attribute per exported function."""

    def __init__(self, lib_path: str, signatures: dict):
        self.lib = ctypes.CDLL(os.path.abspath(lib_path))
        _quiet_omp()
        self.functions = {n: NativeFunction(self.lib, n, p, r)
                          for n, (p, r) in signatures.items()
                          if all(isinstance(t, TType) for t in r)}

    def __getattr__(self, name):
        try:
            return self.__dict__["functions"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name):
        return self.functions[name]


@contextlib.contextmanager
def omp_threads(n: int):
    """Native modules' OpenMP loops (their large loops; docs/passes.md) on
    `n` threads within the block, then as before; yields the number before.
    libomp's omp_set_num_threads, which applies to loops started by the
    calling thread. OMP_NUM_THREADS sets the default when the runtime
    starts."""
    omp = ctypes.CDLL("libomp.so.5")  # the runtime native modules link
    before = omp.omp_get_max_threads()
    omp.omp_set_num_threads(n)
    try:
        yield before
    finally:
        omp.omp_set_num_threads(before)
