"""Saved deployments (docs/python.md): one directory holding what a tuned
configuration needs to run later, elsewhere in time:

    path/deployment.json  the configuration, its measured (and certified)
                          QoS and speed, the backend, the space's
                          fingerprint, the format version
    path/module.mlir      the annotated MLIR with the configuration written
                          in (how to rebuild it)
    path/module.so        the build: native backend (module.vmfb: llvm-cpu)

    ar.save_deployment("deploy", mlir, result=ar.tune(mlir, evaluate))
    d = ar.load_deployment("deploy", space=mlir)   # refuses another space
    d.module.my_kernel(...)                         # native and IREE alike

The directory is built beside its destination and renamed into place: a
failed save leaves no half directory, and an existing one is replaced only
with overwrite=True."""

import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Dict, Optional

from . import _core

FORMAT = 1
_BUILD = {"native": "module.so", "llvm-cpu": "module.vmfb"}


@dataclass
class Deployment:
    """A loaded deployment: its functions (`module`, as load_module gives),
    the configuration and what was measured of it."""
    path: str
    backend: str
    config: Dict[str, int]
    module: object
    qos: Optional[float] = None
    time_ms: Optional[float] = None
    speedup: Optional[float] = None
    certified: Optional[bool] = None
    fingerprint: str = ""
    extra: dict = field(default_factory=dict)


def _fingerprint(mlir: str) -> str:
    return _core.space_fingerprint(_core.Space.from_mlir(mlir, "<space>"), True)


def save_deployment(path: str, mlir: str, config: Optional[Dict[str, int]] = None, *,
                    result: Optional[dict] = None, backend: Optional[str] = None,
                    qos: Optional[float] = None, time_ms: Optional[float] = None,
                    speedup: Optional[float] = None, certified: Optional[bool] = None,
                    extra: Optional[dict] = None, overwrite: bool = False) -> str:
    """Builds `mlir` (annotated linalg MLIR) with `config` for `backend`
    (default $APPROX_BACKEND, else llvm-cpu) and saves it as the directory
    `path`. `result` (ar.tune's) gives the configuration and its measurements
    (best_config, best_accuracy, best_time, speedup, best_certified) unless
    they are given. Raises ValueError for a configuration the MLIR rejects,
    CompileError when the build fails, FileExistsError for an existing path
    without overwrite=True. Returns the path."""
    from .config import MLIRConfigManager
    from .ml import _backend, compile_to_iree
    if result is not None:
        config = result["best_config"] if config is None else config
        qos = result.get("best_accuracy") if qos is None else qos
        time_ms = result.get("best_time") if time_ms is None else time_ms
        speedup = result.get("speedup") if speedup is None else speedup
        certified = result.get("best_certified") if certified is None else certified
    if config is None:
        raise TypeError("save_deployment needs a configuration: config= or result=")
    backend = _backend(backend)
    path = os.path.abspath(path)
    if os.path.exists(path) and not overwrite:
        raise FileExistsError(f"{path}: exists (overwrite=True replaces it)")
    configured = MLIRConfigManager().apply_config(mlir, config)
    meta = {"format": FORMAT, "backend": backend, "config": dict(config), "qos": qos,
            "time_ms": time_ms, "speedup": speedup, "certified": certified,
            "space_fingerprint": _fingerprint(mlir), "extra": extra or {}}
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(dir=parent, prefix=f".{os.path.basename(path)}.")
    try:
        with open(os.path.join(tmp, "module.mlir"), "w") as f:
            f.write(configured)
        compile_to_iree(configured, backend, output=os.path.join(tmp, _BUILD[backend]))
        with open(os.path.join(tmp, "deployment.json"), "w") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")
        if os.path.exists(path):
            old = tempfile.mkdtemp(dir=parent, prefix=f".{os.path.basename(path)}.old.")
            os.rename(path, os.path.join(old, "d"))
            os.rename(tmp, path)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return path


def load_deployment(path: str, *, space: Optional[str] = None) -> Deployment:
    """The deployment saved at `path`, its build loaded (rebuilt from its
    module.mlir, in place, when the build file is missing). With `space`
    (the annotated MLIR being deployed), a deployment tuned on another space
    is refused. Errors name the file and what is wrong."""
    from .ml import LoadedModule, compile_to_iree, load_module
    path = os.path.abspath(path)
    meta_path = os.path.join(path, "deployment.json")
    try:
        with open(meta_path) as f:
            meta = json.load(f)
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: not a deployment (no deployment.json)") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{meta_path}:{e.lineno}: not JSON: {e.msg}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{meta_path}: format {meta.get('format') if isinstance(meta, dict) else '?'}"
                         f", this version reads format {FORMAT}")
    for key, kind in (("backend", str), ("config", dict), ("space_fingerprint", str)):
        if not isinstance(meta.get(key), kind):
            raise ValueError(f"{meta_path}: '{key}' missing or not a {kind.__name__}")
    backend = meta["backend"]
    if backend not in _BUILD:
        raise ValueError(f"{meta_path}: unknown backend '{backend}'")
    if space is not None and _fingerprint(space) != meta["space_fingerprint"]:
        raise ValueError(f"{path}: tuned on another space (its parameters or their ranges "
                         "differ from the MLIR given)")
    mlir_path = os.path.join(path, "module.mlir")
    try:
        with open(mlir_path) as f:
            mlir = f.read()
    except FileNotFoundError:
        raise FileNotFoundError(f"{mlir_path}: missing (the deployment's source)") from None
    build = os.path.join(path, _BUILD[backend])
    if not os.path.exists(build):
        sys.stderr.write(f"approx_runtime: {build} missing: rebuilding it from module.mlir\n")
        tmp = build + ".tmp"
        compile_to_iree(mlir, backend, output=tmp)
        os.replace(tmp, build)
    if backend == "native":
        module = load_module(build, backend="native", mlir=mlir)
    else:
        module = load_module(build, backend="llvm-cpu")
    assert isinstance(module, LoadedModule)
    return Deployment(path=path, backend=backend, config=meta["config"], module=module,
                      qos=meta.get("qos"), time_ms=meta.get("time_ms"),
                      speedup=meta.get("speedup"), certified=meta.get("certified"),
                      fingerprint=meta["space_fingerprint"], extra=meta.get("extra") or {})
