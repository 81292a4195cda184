"""C/C++ comment annotations: parse_and_generate and
inject_annotations_text, down to a compiled, running program."""

import re
import subprocess
import warnings

import pytest

import approx_runtime as ar

SEED_SOURCE = """
// @approx:decision_tree {
//   transform_type: func_substitute
//   state_indices: [-1]
//   state_function: getState
//   thresholds: [5, 10]
//   decisions: [0, 1, 2]
// }
void my_kernel(float* data, int n, int state) { ... }
"""

BASE = """
func.func @getState(%s: i32) -> i32 { return %s : i32 }
func.func @my_kernel(%d: memref<?xf32>, %n: i32, %state: i32) { return }
func.func @approx_my_kernel_1(%d: memref<?xf32>, %n: i32, %state: i32) { return }
func.func @approx_my_kernel_2(%d: memref<?xf32>, %n: i32, %state: i32) { return }
"""


def test_seed_snippet():
    annotations = ar.parse_and_generate(SEED_SOURCE)
    assert '"approx.util.annotation.decision_tree"' in annotations
    assert 'func_name = "my_kernel"' in annotations
    assert "thresholds = array<i32: 5, 10>" in annotations
    annotated_mlir = ar.inject_annotations_text(BASE, annotations)
    params = ar.MLIRConfigManager().parse_annotations(annotated_mlir)
    assert params["my_kernel_threshold_1"].current == 10
    assert params["my_kernel_decision_2"].current == 2
    # and it compiles: two variants selected by the state
    compiled = ar.compile(annotated_mlir, workload=ar.WorkloadType.CPP)
    assert "approx_my_kernel_2" in compiled and "approx." not in compiled


def test_static_and_safety_contract():
    src = """
// @approx:static_transform transform_type=func_substitute knob_val=1 decision_values=[0, 1]
// @approx:safety_contract checker=ok recover=exact_f
static inline double f(double x)
{ return x; }
"""
    ops = ar.parse_and_generate(src).strip().split("\n")
    assert len(ops) == 2
    assert 'knob_val = 1 : i32' in ops[0] and 'func_name = "f"' in ops[0]
    assert 'checker = "ok"' in ops[1] and 'recover = "exact_f"' in ops[1]


@pytest.mark.parametrize("src, text", [
    ("// @approx:decision_tree {\n//   transform_type: func_substitute\n"
     "//   thresholds: [5]\n// }\nvoid f(int s) {}\n",
     "k.c:1:4: error: annotation lacks required key 'decisions'"),
    ("// @approx:static_transform transform_type=loop_perforate knob_val=2\n"
     "for (;;) {}\n", "k.c:1:4: error: annotation of a loop"),
    ("// @approx:static_transform transform_type=loop_perforat knob_val=2\n"
     "void f() {}\n", "k.c:1:4: error: unknown transform type 'loop_perforat'"),
    ("void g() {}\n// @approx:static_transform transform_type=loop_perforate knob_val=2\n",
     "k.c:2:4: error: annotation is not followed by a function definition"),
    ("// @approx:decision_tree transform_type=loop_perforate thresholds=[3,1] "
     "decisions=[0,1,2] state_function=s\nvoid f(int s) {}\n",
     "k.c:1:4: error: thresholds must be strictly ascending"),
    ("// @approx:decision_tree transform_type=loop_perforate thresholds=[3] "
     "decisions=[0,1]\nvoid f(int s) {}\n",
     "k.c:1:4: error: state_function is required here"),
])
def test_errors_are_located(src, text):
    with pytest.raises(ar.AnnotationError) as e:
        ar.parse_and_generate(src, filename="k.c")
    assert text in str(e.value)


def test_near_misses_warn():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert ar.parse_and_generate("// @APPROX: decision_tree\nint f(int x);\n") == ""
    assert len(w) == 1 and "<source>:1:4: warning: '@APPROX:'" in str(w[0].message)


SEED_PROTOTYPE = """int approx_state_identity(int x) { return x; }
// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [1]
//   state_function: approx_state_identity
//   thresholds: [2000]
//   thresholds_lower: [1]
//   thresholds_upper: [40]
//   decisions: [1, 2]
//   decision_values: [0, 1]
// }
double f(const double *x, int n) { return 0; }
// @approx:static_transform transform_type=loop_perforate knob_val=3 decision_values=[0,1,2]
double g(const double *x, int n) { return 0; }
"""


def test_widen_bounds_accepts_the_seed_prototypes_files():
    # Values outside their own bounds: an error by default ...
    with pytest.raises(ar.AnnotationError,
                       match=r"seed\.c:2:4: error: threshold 0 \(2000\) is outside "
                             r"its bounds \[1, 40\]"):
        ar.parse_and_generate(SEED_PROTOTYPE, filename="seed.c")
    # ... accepted on request, a located warning each, bounds widened by the
    # dialect's own rule (as approx-cc --approx-widen-bounds).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ops = ar.parse_and_generate(SEED_PROTOTYPE, filename="seed.c", widen_bounds=True)
    messages = [str(w.message) for w in caught]
    assert messages == [
        "seed.c:2:4: warning: threshold 0 (2000) is outside its bounds [1, 40]; "
        "accepted, bounds widened to [1, 2000] (widen_bounds=True)",
        "seed.c:2:4: warning: decision 1 (2) is not one of decision_values; accepted, "
        "added to decision_values (widen_bounds=True)",
        "seed.c:13:4: warning: knob_val (3) is not one of decision_values; accepted, "
        "added to decision_values (widen_bounds=True)"], messages
    assert "thresholds_uppers = array<i32: 2000>" in ops
    assert "decision_values = array<i32: 0, 1, 2>" in ops
    assert "decision_values = array<i32: 0, 1, 2, 3>" in ops
    # The widened space holds the file's own configuration.
    mlir = ("func.func @approx_state_identity(%x: i32) -> i32 { return %x : i32 }\n"
            "func.func @f(%a: i32, %n: i32) -> i32 { return %a : i32 }\n"
            "func.func @g(%a: i32, %n: i32) -> i32 { return %a : i32 }\n")
    injected = ar.inject_annotations_text(mlir, ops)
    params = ar.MLIRConfigManager().parse_annotations(injected)
    assert params["f_threshold_0"].upper == 2000 and params["f_threshold_0"].current == 2000
    assert 3 in params["g_knob_val"].values


def test_inject_checks_symbols():
    annotations = ar.parse_and_generate(SEED_SOURCE.replace("getState", "nostate"))
    with pytest.raises(ValueError, match="state function 'nostate' is not defined"):
        ar.inject_annotations_text(BASE, annotations)
    with pytest.raises(ValueError, match="<annotations>:1:1: error"):
        ar.inject_annotations_text(BASE, ['"approx.util.annotation.bogus"() : () -> ()'])


def test_real_c_kernel(tools, tmp_path):
    """A C file's own comments become annotations of the MLIR approx-cc
    imports (its annotations stripped), and the program built from that
    MLIR runs perforated."""
    c = tmp_path / "sum.c"
    c.write_text("""
int state_of(int n) { return n; }
// @approx:decision_tree transform_type=loop_perforate state_indices=[-1] state_function=state_of thresholds=[100] decisions=[0, 2]
int sum(const int *x, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}
""")
    base = subprocess.run([str(tools / "approx-cc"), str(c), "--emit=mlir"],
                          capture_output=True, text=True, check=True).stdout
    annotated = ar.inject_annotations_text(base, ar.parse_and_generate(c.read_text()))
    reference = subprocess.run([str(tools / "approx-cc"), str(c), "--emit=annotated"],
                               capture_output=True, text=True, check=True).stdout
    m = ar.MLIRConfigManager()
    assert m.default_config(annotated) == m.default_config(reference)
    compiled = ar.compile(annotated, workload=ar.WorkloadType.CPP)
    # no op of the approx dialect is left (the frontend's approx.nsw_step
    # hint stays on the loop the decision tree keeps exact, for the LLVM
    # stage)
    assert not re.search(r'^\s*(%\S+ = )?"?approx\.', compiled, re.M)
    # perforated by 2 for n >= 100: the loop's step doubles
    assert "arith.constant 2" in compiled or "step" in compiled
