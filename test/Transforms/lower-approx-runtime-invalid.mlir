// RUN: approx-opt %s -split-input-file -verify-diagnostics --lower-approx-runtime

// expected-error @+1 {{symbol 'approx_rt_param' is reserved for the approx runtime (an external '!llvm.func<i32 (ptr, i32, ptr)>')}}
func.func private @approx_rt_param(i32) -> i32
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

// expected-error @+1 {{symbol '__approx_rt_slots' is reserved for the approx runtime}}
func.func private @__approx_rt_slots()
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

func.func @f() -> i32 {
  // expected-error @+1 {{name must not be empty}}
  %a = approx.runtime_param <{default_value = 1 : i32, name = ""}> : i32
  return %a : i32
}

// -----

// expected-error @+1 {{symbol 'approx_rt_table' is reserved for the approx runtime}}
llvm.mlir.global external @approx_rt_table() : i32
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

// expected-error @+1 {{symbol '__approx_rt_register' is reserved for the approx runtime}}
func.func private @__approx_rt_register()
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

// A definition of approx_rt_param (not the runtime's) is an error too.
// expected-error @+1 {{symbol 'approx_rt_param' is reserved for the approx runtime}}
llvm.func @approx_rt_param(%a: !llvm.ptr, %b: i32, %c: !llvm.ptr) -> i32 {
  llvm.return %b : i32
}
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

// Its external declaration is accepted (and used).
llvm.func @approx_rt_param(!llvm.ptr, i32, !llvm.ptr) -> i32
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}
