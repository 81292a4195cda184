// Every annotation error is `file:line:col: error: ...` and fails the build.
// RUN: not approx-cc %S/Inputs/not_followed.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=FOLLOW
// RUN: not approx-cc %S/Inputs/bad_key.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not approx-cc %S/Inputs/bad_list.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: not approx-cc %S/Inputs/length.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=LENGTH
// RUN: not approx-cc %S/Inputs/descending.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=DESC
// RUN: not approx-cc %S/Inputs/bounds.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=BOUNDS
// RUN: not approx-cc %S/Inputs/no_state.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=NOSTATE
// RUN: not approx-cc %S/Inputs/bad_state.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=BADSTATE
// RUN: not approx-cc %S/Inputs/no_variant.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=NOVARIANT
// RUN: not approx-cc %S/Inputs/wrong_variant.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=WRONGVARIANT
// RUN: not approx-cc %S/Inputs/c_error.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=CERROR
// RUN: not approx-cc %S/Inputs/c_error.c -emit=asm 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not approx-cc %t.nothing.o 2>&1 | FileCheck %s --check-prefix=NOSOURCE
// RUN: not approx-cc %S/Inputs/template.cpp -c -o %t.o 2>&1 | FileCheck %s --check-prefix=TEMPLATE
// RUN: not approx-cc %S/Inputs/lambda.cpp -c -o %t.o 2>&1 | FileCheck %s --check-prefix=LAMBDA
// RUN: not approx-cc %S/Inputs/computed_goto.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=GOTO
// RUN: not approx-cc %S/Inputs/preprocessor_between.c -c -o %t.o 2>&1 | FileCheck %s --check-prefix=PREPROCESSOR
// #pragma and #line may stand between an annotation and its loop.
// RUN: approx-cc %S/Inputs/pragma_between.c --emit=annotated | FileCheck %s --check-prefix=PRAGMA
// RUN: approx-cc %S/Inputs/pragma_between.c -o %t.pragma && %t.pragma

// FOLLOW: not_followed.c:2:4: error: annotation is not followed by a function definition or a for/while loop
// KEY: bad_key.c:3:6: error: unknown key 'treshold' (expected one of: transform_type, state_indices, state_function, thresholds, thresholds_lower, thresholds_upper, decisions, decision_values, knob_name, callee)
// LIST: bad_list.c:1:41: error: malformed list: expected ',' or ']'
// LENGTH: length.c:3:6: error: 'approx.util.annotation.decision_tree' op has 2 thresholds, so needs 3 decisions, but has 2
// DESC: descending.c:1:4: error: 'approx.util.annotation.decision_tree' op thresholds must be strictly ascending, but threshold 1 (5) <= threshold 0 (9)
// BOUNDS: bounds.c:1:4: error: 'approx.util.annotation.decision_tree' op threshold 0 (30) is outside its bounds [0, 20]
// NOSTATE: no_state.c:1:42: error: state function 'load' is not declared in this file
// BADSTATE: bad_state.c:2:4: error: 'approx.util.annotation.decision_tree' op state function 'state' has type (f64) -> (i32) but must have type (i32) -> (i32)
// NOVARIANT: no_variant.c:2:4: error: func_substitute variant 'approx_f_2' is not declared in this file
// WRONGVARIANT: wrong_variant.c:2:4: error: 'approx.util.annotation.static_transform' op func_substitute variant 'approx_f_1' has type (f32, i32) -> (f32) but must have type (f64, i32) -> (f64)
// CERROR: c_error.c:1:27: error: expected expression
// EMIT: error: -emit must be mlir, annotated, approx or llvm, got 'asm'
// NOSOURCE: error: no C or C++ source among the inputs
// TEMPLATE: template.cpp:1:4: error: annotation is followed by a function template, which cannot be approximated: annotations apply to function definitions that are not templates (free functions and methods) and to the for/while loops in them; move the code into such a function and annotate it
// LAMBDA: lambda.cpp:4:8: error: annotation is followed by a loop inside a lambda, which cannot be approximated
// GOTO: computed_goto.c:1:4: error: function 'run' cannot be approximated: it uses computed goto (the address of a label)
// PREPROCESSOR: preprocessor_between.c:3:4: error: annotation is followed by the preprocessor line '#if 1' (line 12): only #pragma and #line may stand between an annotation and its function or loop; put the annotation directly before its target (inside the #if, if it is conditional)
// PRAGMA: approx.util.annotation.decision_tree <{{{.*}}func_name = "sum", knob_name = "line14"
