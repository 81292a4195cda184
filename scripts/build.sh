#!/usr/bin/env bash
# Configures (once) and builds everything into build/ with ninja, then
# installs the Python API (approx_runtime) into this checkout's environment
# ($APPROX_VENV, build/venv: the shared ML stack's packages through a .pth
# file, and this checkout's own packages) as an editable package over the
# same build (pip install -e ., pyproject.toml). Two clones on one machine
# each import their own approx_runtime.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/paths.sh"
build=${APPROX_BUILD_DIR:-$root/build}
python=$APPROX_VENV/bin/python
shared_site=$APPROX_SHARED_VENV/lib/python3.11/site-packages
if [ ! -x "$APPROX_SHARED_VENV/bin/python" ]; then
  echo "build: error: no ML stack at $APPROX_SHARED_VENV (run scripts/setup.sh)" >&2
  exit 1
fi
# This checkout's environment over the shared one: Debian's Python (the
# shared environment's), whose site-packages adds the shared ones.
link="import site; site.addsitedir('$shared_site')"
if [ ! -x "$python" ] || [ "$(cat "$APPROX_VENV/lib/python3.11/site-packages/_approx_shared.pth" 2>/dev/null)" != "$link" ]; then
  rm -rf "$APPROX_VENV"
  /usr/bin/python3 -m venv --without-pip "$APPROX_VENV"
  echo "$link" > "$APPROX_VENV/lib/python3.11/site-packages/_approx_shared.pth"
fi
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
# The shared environment holds no approx_runtime (builds before this
# layout installed theirs there, editable over their checkout, and it would
# be what every checkout imported).
if compgen -G "$shared_site/approx_runtime-*.dist-info" > /dev/null; then
  "$APPROX_SHARED_VENV/bin/python" -m pip uninstall --disable-pip-version-check -q -y \
    approx-runtime >&2
fi
ninja -C "$build"
# The Python API, editable, over this build (pyproject.toml; the extension
# is already built, so this is a CMake reconfigure and an install).
"$APPROX_SHARED_VENV/bin/python" -m pip --python "$python" install \
  --disable-pip-version-check -q --no-build-isolation --no-deps \
  -e "$root" --config-settings=build-dir="$build" >&2 ||
  { echo "build: error: pip install -e . (approx_runtime) failed (see above)" >&2; exit 1; }
