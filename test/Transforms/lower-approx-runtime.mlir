// RUN: approx-opt %s -split-input-file --lower-approx-runtime | FileCheck %s

// Each read gets an entry, in program order, in the module's own array of
// slot numbers (internal, all -1: modules compiled apart never share an
// entry). A read is two unordered loads with an alias tag of their own
// under C/C++'s type-based alias root: the slot number, then the value in
// the runtime's exported table. The module's constructor (a global
// constructor at priority 101) calls the runtime with each entry's address,
// its default and its name: it registers the name and fills in the entry
// before any code of the module runs.
func.func @two(%x: i32) -> i32 {
  %a = approx.runtime_param <{default_value = 5 : i32, name = "f_threshold_0"}> : i32
  %b = approx.runtime_param <{default_value = 2 : i32, name = "f_decision_0"}> : i32
  %s = arith.addi %a, %b : i32
  return %s : i32
}
// CHECK-DAG: #[[ROOT:.*]] = #llvm.tbaa_root<id = "Simple C/C++ TBAA">
// CHECK-DAG: #[[CHAR:.*]] = #llvm.tbaa_type_desc<id = "omnipotent char", members = {<#[[ROOT]], 0>}>
// CHECK-DAG: #[[PARAM:.*]] = #llvm.tbaa_type_desc<id = "approx runtime parameter", members = {<#[[CHAR]], 0>}>
// CHECK-DAG: #[[TAG:.*]] = #llvm.tbaa_tag<base_type = #[[PARAM]], access_type = #[[PARAM]], offset = 0>
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_0("f_threshold_0\00")
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_1("f_decision_0\00")
// CHECK-DAG: llvm.func @approx_rt_param(!llvm.ptr, i32, !llvm.ptr) -> i32
// CHECK-DAG: llvm.mlir.global external @approx_rt_table() {{.*}} : !llvm.array<16384 x i32>
// CHECK-DAG: llvm.mlir.global internal @__approx_rt_slots(dense<-1> : tensor<2xi32>) {{.*}} : !llvm.array<2 x i32>
// CHECK-LABEL: func.func @two(
// CHECK-NEXT:    %[[SLOTS:.*]] = llvm.mlir.addressof @__approx_rt_slots
// CHECK-NEXT:    %[[REF:.*]] = llvm.getelementptr %[[SLOTS]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.load %[[REF]] atomic unordered {alignment = 4 : i64, tbaa = [#[[TAG]]]} : !llvm.ptr -> i32
// CHECK-NEXT:    %[[TABLE:.*]] = llvm.mlir.addressof @approx_rt_table
// CHECK-NEXT:    %[[ENTRY:.*]] = llvm.getelementptr %[[TABLE]][%[[SLOT]]] : (!llvm.ptr, i32) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[A:.*]] = llvm.load %[[ENTRY]] atomic unordered {alignment = 4 : i64, tbaa = [#[[TAG]]]} : !llvm.ptr -> i32
// CHECK:         llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.load %{{.*}} atomic unordered
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} atomic unordered
// CHECK-NEXT:    arith.addi %[[A]], %[[B]]
// CHECK-NOT:     approx.runtime_param
// CHECK-NOT:     llvm.call
// CHECK-LABEL: llvm.func internal @__approx_rt_register() {
// CHECK-NEXT:    %[[S:.*]] = llvm.mlir.addressof @__approx_rt_slots
// CHECK-NEXT:    %[[R0:.*]] = llvm.getelementptr %[[S]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK:         %[[N0:.*]] = llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<14 x i8>
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT:    llvm.call @approx_rt_param(%[[R0]], %[[D0]], %[[N0]])
// CHECK-NEXT:    %[[R1:.*]] = llvm.getelementptr %[[S]][1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK:         llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    llvm.call @approx_rt_param(%[[R1]],
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.mlir.global_ctors ctors = [@__approx_rt_register], priorities = [101 : i32], data = [#llvm.zero]

// -----

// The program's own constructors (C++ static initialisers) are kept; the
// registration joins them in the one global_ctors op.
llvm.func @init_globals() {
  llvm.return
}
llvm.mlir.global_ctors ctors = [@init_globals], priorities = [65535 : i32], data = [#llvm.zero]
func.func @one() -> i32 {
  %a = approx.runtime_param <{default_value = 1 : i32, name = "g_knob_val"}> : i32
  return %a : i32
}
// CHECK-LABEL: func.func @one(
// CHECK:       llvm.mlir.global_ctors ctors = [@init_globals, @__approx_rt_register], priorities = [65535 : i32, 101 : i32], data = [#llvm.zero, #llvm.zero]
// CHECK-NOT:   llvm.mlir.global_ctors
