"""approx_runtime: the Python interface of ApproxMLIR (docs/python.md).

Annotate functions with knobs (`Knob`, `DecisionTree`, `StaticTransform`,
`SafetyContract`), read and write the tunable parameters of annotated MLIR
(`MLIRConfigManager`), generate annotations from C/C++ comments
(`parse_and_generate`, `inject_annotations_text`), compile (`compile`),
export and deploy JAX functions (`export_to_mlir`, `inject_annotations`,
`compile_to_iree`, `load_module`), tune (`tune`, `ApproxTunerInterface`)
certify picks from per-input scores (`certify`, `loss_upper_bound`), save
and reload deployments (`save_deployment`, `load_deployment`), and hold a
latency goal at run time on the tuned frontier (`Controller`).
The C++ core is the extension `_core`.
"""

import glob as _glob
import os as _os

def _find_core() -> None:
    """Makes `_core` importable: installed beside this file (pip), or in
    the build tree when the source tree is used directly
    (PYTHONPATH=python)."""
    for d in __path__:
        if _glob.glob(_os.path.join(d, "_core*.so")):
            return
    build = _os.environ.get("APPROX_BUILD_DIR") or _os.path.join(
        _os.path.dirname(__file__), "..", "..", "build")
    d = _os.path.join(build, "python", "approx_runtime")
    if not _glob.glob(_os.path.join(d, "_core*.so")):
        raise ImportError(
            "approx_runtime's C++ core (_core) is not built: run "
            "scripts/build.sh, or pip install -e . in the repository")
    __path__.append(d)


_find_core()
from . import _core  # noqa: E402

from .annotations import (DecisionTree, Knob, SafetyContract, StaticTransform,
                          get_config, transform_types)
from .config import MLIRConfigManager, TunableParam
from .cpp import AnnotationError, inject_annotations_text, parse_and_generate
from .compiler import (PASS_PIPELINE, CompileError, WorkloadType, compile,
                       approx_opt)
from .ml import (CompiledModule, LoadedModule, compile_to_iree, export_to_mlir,
                 export_with_config, inject_annotations, load_module)
from .space import Space
from .tuning import ApproxTunerInterface, create_tuner_arg_parser, tune
from .certification import certify, loss_upper_bound
from .controller import Controller
from .deployment import Deployment, load_deployment, save_deployment

__all__ = [
    "Knob", "DecisionTree", "SafetyContract", "StaticTransform", "get_config",
    "transform_types", "MLIRConfigManager", "TunableParam",
    "parse_and_generate", "inject_annotations_text", "AnnotationError",
    "PASS_PIPELINE", "WorkloadType", "CompileError", "compile", "approx_opt",
    "export_to_mlir", "export_with_config", "inject_annotations",
    "compile_to_iree", "load_module", "CompiledModule", "LoadedModule",
    "tune", "Space", "ApproxTunerInterface", "create_tuner_arg_parser",
    "certify", "loss_upper_bound", "Controller", "Deployment", "save_deployment",
    "load_deployment",
]
