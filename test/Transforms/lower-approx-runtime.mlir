// RUN: approx-opt %s --lower-approx-runtime | FileCheck %s

// Each read gets a slot, in program order: one relaxed load of the slot's
// word in the module's own table (internal: modules compiled apart never
// share a slot); the runtime is called (with the word's address, the default
// and the name) only while the word is not registered.
func.func @two(%x: i32) -> i32 {
  %a = approx.runtime_param <{default_value = 5 : i32, name = "f_threshold_0"}> : i32
  %b = approx.runtime_param <{default_value = 2 : i32, name = "f_decision_0"}> : i32
  %s = arith.addi %a, %b : i32
  return %s : i32
}
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_0("f_threshold_0\00")
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_1("f_decision_0\00")
// CHECK-DAG: func.func private @approx_rt_param(!llvm.ptr, i32, !llvm.ptr) -> i32
// CHECK-DAG: llvm.mlir.global internal @__approx_rt_table(#llvm.zero) {{.*}} : !llvm.array<2 x i64>
// CHECK-LABEL: func.func @two(
// CHECK:         %[[TABLE:.*]] = llvm.mlir.addressof @__approx_rt_table
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.getelementptr %[[TABLE]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[WORD:.*]] = llvm.load %[[SLOT]] atomic monotonic
// CHECK:         %[[READY:.*]] = arith.cmpi ne
// CHECK-NEXT:    %[[A:.*]] = scf.if %[[READY]] -> (i32) {
// CHECK-NEXT:      %[[V:.*]] = arith.trunci %[[WORD]] : i64 to i32
// CHECK-NEXT:      scf.yield %[[V]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[DFLT:.*]] = arith.constant 5 : i32
// CHECK-NEXT:      %[[R:.*]] = func.call @approx_rt_param(%[[SLOT]], %[[DFLT]], %{{.*}})
// CHECK-NEXT:      scf.yield %[[R]]
// CHECK:         llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:         %[[B:.*]] = scf.if
// CHECK:           arith.constant 2 : i32
// CHECK-NEXT:      func.call @approx_rt_param
// CHECK:         arith.addi %[[A]], %[[B]]
// CHECK-NOT:     approx.runtime_param
