"""Errors of the ML route: each prints one line; the test checks them."""
import jax.numpy as jnp
import numpy as np

import approx_ml as am
from approx_ml.native import CompileError

x = np.zeros((4, 3), np.float32)


def report(what, fn):
    try:
        fn()
        print(f"{what}: no error")
    except (am.UnsupportedOp, CompileError, ValueError) as e:
        print(f"{what}: {type(e).__name__}: {e}")


# An op the importer does not translate: named, with its function.
report("sort", lambda: am.export_to_mlir(lambda a: jnp.sort(a, axis=0), x,
                                          name="sorted"))
# decode_quantize on a function without a matmul: approx-compile's located
# error.
mlir = am.export_to_mlir(lambda a: a * 2.0, x, name="scale")
report("no matmul", lambda: am.compile_module(am.inject_annotations(
    mlir, "scale", {"static_transform": dict(transform_type="decode_quantize",
                                             knob_val=1)})))
# An unknown transform type.
report("bad kind", lambda: am.compile_module(am.inject_annotations(
    mlir, "scale", {"static_transform": dict(transform_type="quantise",
                                             knob_val=1)})))
# A knob on a function that is not there.
report("no function", lambda: am.inject_annotations(
    mlir, "missing", {"static_transform": dict(transform_type="loop_perforate",
                                               knob_val=2)}))
# A form of a covered op that is not: a grouped (depthwise) convolution.
report("grouped conv", lambda: am.export_to_mlir(
    lambda a, k: __import__("jax").lax.conv_general_dilated(
        a, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
        feature_group_count=3),
    np.zeros((1, 5, 5, 3), np.float32), np.zeros((3, 3, 1, 3), np.float32), name="depthwise"))
