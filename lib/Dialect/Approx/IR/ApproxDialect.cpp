//===- ApproxDialect.cpp - approx dialect ---------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace approx;

#include "approx/Dialect/Approx/IR/ApproxDialect.cpp.inc"
#include "approx/Dialect/Approx/IR/ApproxEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "approx/Dialect/Approx/IR/ApproxAttrs.cpp.inc"

void ApproxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "approx/Dialect/Approx/IR/ApproxOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "approx/Dialect/Approx/IR/ApproxAttrs.cpp.inc"
      >();
}
