# Sourced by the scripts: where the ML stack lives outside the tracked tree.
#   APPROX_CACHE_DIR  cache root (default ~/.cache/approxmlir): the Python
#                     virtual environment, model wheels and model files
#   APPROX_SHARED_VENV the ML stack's virtual environment, shared by every
#                     checkout on the machine (llama-cpp-python,
#                     ml/requirements-python.txt; scripts/setup-ml.sh)
#   APPROX_VENV       this checkout's environment (scripts/build.sh): the
#                     shared one's packages (through a .pth file) and this
#                     checkout's approx_runtime, editable over its build; two
#                     clones on one machine each have their own
#   APPROX_MODELS     the model files (GGUF)
#   APPROX_LLAMA_ROOT the prefix where llama-cpp-python installs llama.cpp
#                     (lib/libllama.so, include/llama.h, lib/cmake/llama)
approx_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
APPROX_CACHE_DIR=${APPROX_CACHE_DIR:-$HOME/.cache/approxmlir}
# llama.cpp's CMake options (scripts/setup-ml.sh): built for this machine's
# instructions (-march=native) except AMX. ggml's AMX matmuls crashed
# (SIGSEGV in ldtilecfg) on a 2-core VM whose processor reports AMX
# (2026-11-24), and -march=native under GGML_NATIVE would turn them on.
approx_llama_flags='-march=native -mno-amx-tile -mno-amx-int8 -mno-amx-bf16'
approx_llama_cmake_args="-DGGML_NATIVE=OFF \
-DCMAKE_C_FLAGS='$approx_llama_flags' \
-DCMAKE_CXX_FLAGS='$approx_llama_flags' \
-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DLLAVA_BUILD=OFF"
# The environment is keyed by the pinned requirements, those options and the
# processor: llama.cpp is built for the machine it is built on.
approx_venv_key=$( (cat "$approx_root"/ml/requirements*.txt; echo "$approx_llama_cmake_args"
  grep -m1 '^flags' /proc/cpuinfo) | sha256sum | cut -c1-12)
APPROX_SHARED_VENV=${APPROX_SHARED_VENV:-$APPROX_CACHE_DIR/venv-$approx_venv_key}
# Always this checkout's (an APPROX_VENV inherited from another checkout's
# scripts would install this checkout's approx_runtime into that one's).
APPROX_VENV=${APPROX_BUILD_DIR:-$approx_root/build}/venv
APPROX_MODELS=${APPROX_MODELS:-$APPROX_CACHE_DIR/models}
APPROX_LLAMA_ROOT=${APPROX_LLAMA_ROOT:-$APPROX_SHARED_VENV/lib/python3.11/site-packages}
export APPROX_CACHE_DIR APPROX_SHARED_VENV APPROX_VENV APPROX_MODELS APPROX_LLAMA_ROOT
