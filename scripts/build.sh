#!/usr/bin/env bash
# Configures (once) and builds everything into build/ with ninja, then
# installs the Python API (approx_runtime) into the project environment as
# an editable package over the same build (pip install -e ., pyproject.toml).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/paths.sh"
build=${APPROX_BUILD_DIR:-$root/build}
python=$APPROX_VENV/bin/python
# The LLM engine links llama.cpp from the ML stack (scripts/setup-ml.sh); the
# Python extension is built for the project environment's Python.
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DAPPROX_LLAMA_ROOT="$APPROX_LLAMA_ROOT" \
    -DPython_EXECUTABLE:FILEPATH="$python"
# (pip's configure below records the Python as a PATH, ours as a FILEPATH.)
elif ! grep -qxF "APPROX_LLAMA_ROOT:PATH=$APPROX_LLAMA_ROOT" "$build/CMakeCache.txt" ||
    ! grep -qxE "Python_EXECUTABLE:(FILE)?PATH=$python" "$build/CMakeCache.txt"; then
  cmake "$build" -DAPPROX_LLAMA_ROOT="$APPROX_LLAMA_ROOT" -DPython_EXECUTABLE:FILEPATH="$python"
fi
# The environment is shared by every checkout on this machine: an editable
# install of another checkout (or of a removed one) would be what the stub
# generator imports as approx_runtime, so it goes first.
if compgen -G "$APPROX_VENV/lib/python3.11/site-packages/approx_runtime-*.dist-info" > /dev/null; then
  "$python" -m pip uninstall --disable-pip-version-check -q -y approx-runtime >&2
fi
ninja -C "$build"
# The Python API, editable, over this build (pyproject.toml; the extension
# is already built, so this is a CMake reconfigure and an install).
"$python" -m pip install --disable-pip-version-check -q --no-build-isolation --no-deps \
  -e "$root" --config-settings=build-dir="$build" >&2 ||
  { echo "build: error: pip install -e . (approx_runtime) failed (see above)" >&2; exit 1; }
