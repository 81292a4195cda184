#!/usr/bin/env bash
# Configures (once) and builds everything into build/ with ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/paths.sh"
build=${APPROX_BUILD_DIR:-$root/build}
# The LLM engine links llama.cpp from the ML stack (scripts/setup-ml.sh).
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DAPPROX_LLAMA_ROOT="$APPROX_LLAMA_ROOT"
elif ! grep -qxF "APPROX_LLAMA_ROOT:PATH=$APPROX_LLAMA_ROOT" "$build/CMakeCache.txt"; then
  cmake "$build" -DAPPROX_LLAMA_ROOT="$APPROX_LLAMA_ROOT"
fi
ninja -C "$build"
