#!/usr/bin/env bash
# The whole test suite on an AddressSanitizer + UndefinedBehaviorSanitizer
# build of the project's C++ (tools, libraries, unit tests) in build-asan/
# (the C runtime, which generated programs and Python link, and upstream
# LLVM/MLIR stay uninstrumented). Any sanitizer report fails its test.
# Leak checking is off: MLIR and LLVM keep process-lifetime singletons.
# Usage: scripts/test-sanitized.sh   (the second command of README's testing
# section; too long for CI's budget on 2 cores: a full rebuild)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${APPROX_ASAN_BUILD_DIR:-$root/build-asan}
"$root/scripts/setup.sh"
# Its own environment too (build-asan/venv), with the instrumented extension.
export APPROX_BUILD_DIR=$build
source "$root/scripts/paths.sh"
if [ ! -f "$build/build.ninja" ]; then
  # vptr checks need RTTI, which LLVM and MLIR are built without: every
  # call into a cl::Option or an Op would be a false report.
  # -U__SANITIZE_ADDRESS__: LLVM's inline BumpPtrAllocator would poison
  # slabs that the uninstrumented libMLIR then hands out (false
  # use-after-poison reports); the instrumentation itself stays.
  sanitize="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer -U__SANITIZE_ADDRESS__"
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$sanitize" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DAPPROX_LLAMA_ROOT="$APPROX_LLAMA_ROOT"
fi
# Built first, without the preload below (the linker crashes under it).
APPROX_BUILD_DIR=$build "$root/scripts/build.sh"
# handle_segv=0: a preloaded runtime would otherwise turn the SIGSEGV that
# crash tests send their own shells into an ASan report (not a crash).
export ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0:abort_on_error=1:handle_segv=0
# Uninstrumented processes (programs approx-cc builds, Python) load the
# instrumented libapprox_llm.so: the sanitizer runtime must come first.
export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:handle_segv=0
# Tests with a wall-clock budget scale it (lit.cfg.py: %budget_scale).
export APPROX_TEST_BUDGET_SCALE=${APPROX_TEST_BUDGET_SCALE:-8}
APPROX_BUILD_DIR=$build APPROX_SKIP_FUZZ=1 APPROX_PREBUILT=1 exec "$root/scripts/test.sh"
