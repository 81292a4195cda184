// RUN: approx-opt %s -split-input-file --lower-approx-runtime | FileCheck %s

// Each parameter name read gets a cell, in program order, in the module's
// own array (internal, holding the defaults: modules compiled apart never
// share a cell); a second read of a name uses its cell. A read is one
// unordered load, with an alias tag of its own under C/C++'s type-based
// alias root, from an address fixed at link time. The module's constructor
// (a global constructor at priority 101) calls the runtime with each cell's
// address, its default and its name: it registers the cell, which the
// runtime keeps up to date from then on, before any code of the module
// runs; the destructor releases the array.
func.func @two(%x: i32) -> i32 {
  %a = approx.runtime_param <{default_value = 5 : i32, name = "f_threshold_0"}> : i32
  %b = approx.runtime_param <{default_value = 2 : i32, name = "f_decision_0"}> : i32
  %c = approx.runtime_param <{default_value = 5 : i32, name = "f_threshold_0"}> : i32
  %s = arith.addi %a, %b : i32
  %t = arith.addi %s, %c : i32
  return %t : i32
}
// CHECK-DAG: #[[ROOT:.*]] = #llvm.tbaa_root<id = "Simple C/C++ TBAA">
// CHECK-DAG: #[[CHAR:.*]] = #llvm.tbaa_type_desc<id = "omnipotent char", members = {<#[[ROOT]], 0>}>
// CHECK-DAG: #[[PARAM:.*]] = #llvm.tbaa_type_desc<id = "approx runtime parameter", members = {<#[[CHAR]], 0>}>
// CHECK-DAG: #[[TAG:.*]] = #llvm.tbaa_tag<base_type = #[[PARAM]], access_type = #[[PARAM]], offset = 0>
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_0("f_threshold_0\00")
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_1("f_decision_0\00")
// CHECK-DAG: llvm.func @approx_rt_param(!llvm.ptr, i32, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @approx_rt_release(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal @__approx_rt_cells(dense<[5, 2]> : tensor<2xi32>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<2 x i32>
// CHECK-NOT: __approx_param_name_2
// CHECK-LABEL: func.func @two(
// CHECK-NEXT:    %[[CELLS:.*]] = llvm.mlir.addressof @__approx_rt_cells
// CHECK-NEXT:    %[[CELL:.*]] = llvm.getelementptr %[[CELLS]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[A:.*]] = llvm.load %[[CELL]] atomic unordered {alignment = 4 : i64, tbaa = [#[[TAG]]]} : !llvm.ptr -> i32
// CHECK-NEXT:    llvm.mlir.addressof @__approx_rt_cells
// CHECK-NEXT:    llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[B:.*]] = llvm.load %{{.*}} atomic unordered
// CHECK-NEXT:    llvm.mlir.addressof @__approx_rt_cells
// CHECK-NEXT:    llvm.getelementptr %{{.*}}[0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[C:.*]] = llvm.load %{{.*}} atomic unordered
// CHECK-NEXT:    arith.addi %[[A]], %[[B]]
// CHECK-NOT:     approx.runtime_param
// CHECK-NOT:     llvm.call
// CHECK-LABEL: llvm.func internal @__approx_rt_register() {
// CHECK-NEXT:    llvm.mlir.addressof @__approx_param_name_0
// CHECK-NEXT:    %[[N0:.*]] = llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<14 x i8>
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT:    %[[S:.*]] = llvm.mlir.addressof @__approx_rt_cells
// CHECK-NEXT:    %[[R0:.*]] = llvm.getelementptr %[[S]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.call @approx_rt_param(%[[R0]], %[[D0]], %[[N0]])
// CHECK:         llvm.mlir.constant(2 : i32) : i32
// CHECK:         llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.call @approx_rt_param(
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func internal @__approx_rt_unregister() {
// CHECK-NEXT:    %[[S:.*]] = llvm.mlir.addressof @__approx_rt_cells
// CHECK-NEXT:    %[[BEGIN:.*]] = llvm.getelementptr %[[S]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[S2:.*]] = llvm.mlir.addressof @__approx_rt_cells
// CHECK-NEXT:    %[[END:.*]] = llvm.getelementptr %[[S2]][2] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.call @approx_rt_release(%[[BEGIN]], %[[END]])
// CHECK-NEXT:    llvm.return
// CHECK-DAG:   llvm.mlir.global_ctors ctors = [@__approx_rt_register], priorities = [101 : i32], data = [#llvm.zero]
// CHECK-DAG:   llvm.mlir.global_dtors dtors = [@__approx_rt_unregister], priorities = [101 : i32], data = [#llvm.zero]

// -----

// The program's own constructors and destructors (C++ static objects) are
// kept; the registration joins them in the one global_ctors and
// global_dtors op.
llvm.func @init_globals() {
  llvm.return
}
llvm.func @fini_globals() {
  llvm.return
}
llvm.mlir.global_ctors ctors = [@init_globals], priorities = [65535 : i32], data = [#llvm.zero]
llvm.mlir.global_dtors dtors = [@fini_globals], priorities = [65535 : i32], data = [#llvm.zero]
func.func @one() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "g_knob_val"}> : i32
  return %a : i32
}
// CHECK-LABEL: func.func @one(
// CHECK-DAG:   llvm.mlir.global_ctors ctors = [@init_globals, @__approx_rt_register], priorities = [65535 : i32, 101 : i32], data = [#llvm.zero, #llvm.zero]
// CHECK-DAG:   llvm.mlir.global_dtors dtors = [@fini_globals, @__approx_rt_unregister], priorities = [65535 : i32, 101 : i32], data = [#llvm.zero, #llvm.zero]
// CHECK-NOT:   llvm.mlir.global_ctors
// CHECK-NOT:   llvm.mlir.global_dtors
