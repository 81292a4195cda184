//===- ApproxDialect.cpp - approx dialect ---------------------------------===//
#include "approx/Dialect/Approx/IR/ApproxDialect.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"

using namespace mlir;
using namespace approx;

#include "approx/Dialect/Approx/IR/ApproxDialect.cpp.inc"

void ApproxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "approx/Dialect/Approx/IR/ApproxOps.cpp.inc"
      >();
}
