// RUN: approx-opt %s --lower-approx-runtime | FileCheck %s

// Each read gets an entry, in program order, in the module's own array of
// slot numbers (internal, all -1: modules compiled apart never share an
// entry). Once the runtime has filled in the slot number, a read is two
// loads: the slot number, then the value in the runtime's exported table;
// while it is -1, the runtime is called with the entry's address, the
// default and the name (it registers the name and fills in the entry).
func.func @two(%x: i32) -> i32 {
  %a = approx.runtime_param <{default_value = 5 : i32, name = "f_threshold_0"}> : i32
  %b = approx.runtime_param <{default_value = 2 : i32, name = "f_decision_0"}> : i32
  %s = arith.addi %a, %b : i32
  return %s : i32
}
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_0("f_threshold_0\00")
// CHECK-DAG: llvm.mlir.global internal constant @__approx_param_name_1("f_decision_0\00")
// CHECK-DAG: func.func private @approx_rt_param(!llvm.ptr, i32, !llvm.ptr) -> i32
// CHECK-DAG: llvm.mlir.global external @approx_rt_table() {{.*}} : !llvm.array<16384 x i32>
// CHECK-DAG: llvm.mlir.global internal @__approx_rt_slots(dense<-1> : tensor<2xi32>) {{.*}} : !llvm.array<2 x i32>
// CHECK-LABEL: func.func @two(
// CHECK:         %[[NAME:.*]] = llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<14 x i8>
// CHECK:         %[[SLOTS:.*]] = llvm.mlir.addressof @__approx_rt_slots
// CHECK-NEXT:    %[[REF:.*]] = llvm.getelementptr %[[SLOTS]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.load %[[REF]] atomic acquire
// CHECK:         %[[KNOWN:.*]] = arith.cmpi sge, %[[SLOT]]
// CHECK-NEXT:    %[[A:.*]] = scf.if %[[KNOWN]] -> (i32) {
// CHECK-NEXT:      %[[TABLE:.*]] = llvm.mlir.addressof @approx_rt_table
// CHECK-NEXT:      %[[ENTRY:.*]] = llvm.getelementptr %[[TABLE]][%[[SLOT]]] : (!llvm.ptr, i32) -> !llvm.ptr, i32
// CHECK-NEXT:      %[[V:.*]] = llvm.load %[[ENTRY]] atomic monotonic
// CHECK-NEXT:      scf.yield %[[V]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[DFLT:.*]] = arith.constant 5 : i32
// CHECK-NEXT:      %[[R:.*]] = func.call @approx_rt_param(%[[REF]], %[[DFLT]], %[[NAME]])
// CHECK-NEXT:      scf.yield %[[R]]
// CHECK:         llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK:         %[[B:.*]] = scf.if
// CHECK:           arith.constant 2 : i32
// CHECK-NEXT:      func.call @approx_rt_param
// CHECK:         arith.addi %[[A]], %[[B]]
// CHECK-NOT:     approx.runtime_param
