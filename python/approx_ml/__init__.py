"""The ML route of ApproxMLIR: JAX functions through approx-opt to native
code (DESIGN §13). `export_to_mlir` lowers a JAX function to StableHLO and
imports it as linalg on tensors; `inject_annotations` adds the seed's
annotations; `compile_module` builds native code through the approx pipeline
and returns a module whose functions take and return numpy arrays."""

from .stablehlo_import import UnsupportedOp, stablehlo_to_linalg
from .export import (compile_module, export_to_mlir, inject_annotations,
                     annotation_text)

__all__ = ["UnsupportedOp", "stablehlo_to_linalg", "export_to_mlir",
           "inject_annotations", "annotation_text", "compile_module"]
