"""`compile`: the approx passes over MLIR text with approx-opt, as the
seed's toolchains run them; `PASS_PIPELINE`, `WorkloadType`, and where the
tools are found (the seed's environment variables).

    compiled = ar.compile(mlir_text)                           # ML workload
    compiled = ar.compile(mlir_text, workload=ar.WorkloadType.CPP)

approx-opt is, in this order: $APPROX_OPT_ML / $APPROX_OPT_CPP (per
workload), $APPROX_OPT_PATH, $APPROX_BIN/approx-opt, the build tree next to
this package (build/bin), then PATH. One approx-opt serves both workloads
here (the seed had a separate Polygeist build for C++).
"""

from __future__ import annotations

import enum
import os
import shutil
import subprocess
import tempfile
from typing import Dict, Optional, Sequence, Union

from . import _core
from .config import _check_types

#: The seed's pass pipeline, in order.
PASS_PIPELINE = ("emit-approx", "emit-management", "config-approx",
                 "transform-approx", "finalize-approx")


class WorkloadType(enum.Enum):
    """Which toolchain compiles the MLIR: ML (StableHLO/linalg from JAX)
    or CPP (C/C++ through approx-cc)."""
    ML = "ml"
    CPP = "cpp"


class CompileError(RuntimeError):
    """A tool failed; the message carries its located diagnostics."""


_REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def find_tool(name: str, env: Sequence[str] = ()) -> str:
    """The path of one of the project's tools (`env`: variables naming it,
    first set wins; then APPROX_BIN, the build tree, PATH)."""
    for var in env:
        path = os.environ.get(var)
        if path:
            if not os.access(path, os.X_OK):
                raise CompileError(f"{var}={path}: not an executable file")
            return path
    candidates = []
    if os.environ.get("APPROX_BIN"):
        candidates.append(os.path.join(os.environ["APPROX_BIN"], name))
    build = os.environ.get("APPROX_BUILD_DIR") or os.path.join(_REPO, "build")
    candidates.append(os.path.join(build, "bin", name))
    for path in candidates:
        if os.access(path, os.X_OK):
            return path
    found = shutil.which(name)
    if not found:
        raise CompileError(f"{name} not found: build the project "
                           "(scripts/build.sh), or set "
                           + " / ".join(list(env) + ["APPROX_BIN"]))
    return found


def approx_opt(workload: WorkloadType = WorkloadType.ML) -> str:
    """The approx-opt for `workload` (see the module's doc)."""
    specific = "APPROX_OPT_ML" if workload is WorkloadType.ML else "APPROX_OPT_CPP"
    return find_tool("approx-opt", [specific, "APPROX_OPT_PATH"])


def _pass_list(passes, config_path: Optional[str]) -> str:
    if isinstance(passes, str):
        passes = [p.strip() for p in passes.split(",") if p.strip()]
    items = []
    for p in passes:
        if not isinstance(p, str) or not p:
            raise TypeError(f"passes must be pass names, not {p!r}")
        if p == "config-approx" and config_path:
            p = f"config-approx{{config={config_path}}}"
        items.append(p)
    return "builtin.module(" + ",".join(items) + ")"


def compile(mlir: str, passes: Union[str, Sequence[str]] = PASS_PIPELINE,
            workload: WorkloadType = WorkloadType.ML, *,
            config: Optional[Dict[str, int]] = None,
            timeout: Optional[float] = None) -> str:
    """`mlir` after the approx passes (approx-opt), as text: knobs lowered
    to plain MLIR with their annotation values (or `config`'s, a dict of
    parameter values, applied by config-approx). Raises CompileError with
    approx-opt's located diagnostics."""
    if not isinstance(workload, WorkloadType):
        raise TypeError("workload must be ar.WorkloadType.ML or .CPP")
    tool = approx_opt(workload)
    with tempfile.TemporaryDirectory(prefix="approx-compile-") as tmp:
        config_path = None
        if config is not None:
            config_path = os.path.join(tmp, "config.json")
            with open(config_path, "w") as f:
                # The types apply_config accepts (2.9, "3", True were
                # silently coerced here).
                f.write(_core.to_json(_check_types(config)))
        cmd = [tool, "-", f"--pass-pipeline={_pass_list(passes, config_path)}"]
        try:
            p = subprocess.run(cmd, input=mlir, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CompileError(f"approx-opt did not finish in {timeout} s") from None
    if p.returncode != 0:
        raise CompileError(p.stderr.strip() or
                           f"approx-opt exited with status {p.returncode}")
    return p.stdout


__all__ = ["PASS_PIPELINE", "WorkloadType", "CompileError", "compile",
           "approx_opt", "find_tool"]
