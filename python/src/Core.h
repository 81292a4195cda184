//===- Core.h - shared pieces of the approx_runtime extension ---*- C++ -*-===//
//
// The Python module `approx_runtime._core` (docs/python.md) binds the C++
// libraries: MLIR text in and out (this header), the tuner (Tune.cpp),
// certification (Certify.cpp), the runtime controller (Controller.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_PYTHON_CORE_H
#define APPROX_PYTHON_CORE_H

#include "approx/Tuner/Certify.h"
#include "approx/Tuner/Space.h"

#include <nanobind/nanobind.h>

#include <string>

namespace approx::python {

/// The module `text` (MLIR) with `config` written into its annotations;
/// raises ValueError with the located diagnostics when it does not parse.
std::string applyConfig(const std::string &text, const tune::Config &config,
                        const std::string &filename);

/// The tunable parameters of the annotations of `text`.
tune::Space spaceOf(const std::string &text, const std::string &filename);

/// Binds the tuner (Tune.cpp).
void bindTune(nanobind::module_ &m);

/// The bound named `name`; ValueError naming the argument `arg` otherwise.
tune::BoundKind boundArg(const std::string &name, const char *arg);

/// Binds certification over per-input scores (Certify.cpp).
void bindCertify(nanobind::module_ &m);

/// Binds the runtime controller (Controller.cpp).
void bindController(nanobind::module_ &m);

} // namespace approx::python

#endif // APPROX_PYTHON_CORE_H
