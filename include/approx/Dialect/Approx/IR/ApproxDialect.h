//===- ApproxDialect.h - approx dialect -------------------------*- C++ -*-===//
#ifndef APPROX_DIALECT_APPROX_IR_APPROXDIALECT_H
#define APPROX_DIALECT_APPROX_IR_APPROXDIALECT_H

#include "mlir/IR/Dialect.h"

#include "approx/Dialect/Approx/IR/ApproxDialect.h.inc"

#endif // APPROX_DIALECT_APPROX_IR_APPROXDIALECT_H
