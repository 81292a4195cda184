//===- ApproxDialect.h - approx dialect -------------------------*- C++ -*-===//
#ifndef APPROX_DIALECT_APPROX_IR_APPROXDIALECT_H
#define APPROX_DIALECT_APPROX_IR_APPROXDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "approx/Dialect/Approx/IR/ApproxDialect.h.inc"
#include "approx/Dialect/Approx/IR/ApproxEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "approx/Dialect/Approx/IR/ApproxAttrs.h.inc"

#endif // APPROX_DIALECT_APPROX_IR_APPROXDIALECT_H
