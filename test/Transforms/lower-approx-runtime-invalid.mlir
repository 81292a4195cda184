// RUN: approx-opt %s -split-input-file -verify-diagnostics --lower-approx-runtime

// expected-error @+1 {{symbol 'approx_rt_param' is reserved for the approx runtime (an external '!llvm.func<i32 (ptr, i32, ptr)>')}}
func.func private @approx_rt_param(i32) -> i32
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

// expected-error @+1 {{symbol '__approx_rt_cells' is reserved for the approx runtime}}
func.func private @__approx_rt_cells()
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

// expected-error @+1 {{symbol 'approx_rt_release' is reserved for the approx runtime (an external '!llvm.func<void (ptr, ptr)>')}}
llvm.mlir.global external @approx_rt_release() : i32
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

// expected-error @+1 {{symbol '__approx_rt_unregister' is reserved for the approx runtime}}
func.func private @__approx_rt_unregister()
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  return %a : i32
}

// -----

// Reads of one name share a cell, so they must agree on its default.
func.func @f() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "k_knob_val"}> : i32
  // expected-error @+1 {{reads runtime parameter 'k_knob_val' with default 2, but another read of it has default 1}}
  %b = approx.runtime_param <{default_value = 2 : i32, name = "k_knob_val"}> : i32
  %s = arith.addi %a, %b : i32
  return %s : i32
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
