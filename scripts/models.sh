#!/usr/bin/env bash
# Makes the lower-precision model variants named by the `quant` lines of
# ml/models.txt with the engine's llama_model_quantize (approx-llm quantize),
# once: a variant already in $APPROX_MODELS is kept. Needs scripts/setup.sh
# (the source models) and scripts/build.sh (approx-llm).
set -euo pipefail
source "$(dirname "$0")/paths.sh"
build=${APPROX_BUILD_DIR:-$approx_root/build}
tool=$build/bin/approx-llm
if [ ! -x "$tool" ]; then
  echo "models: error: $tool not found (run scripts/build.sh)" >&2
  exit 1
fi
while read -r kind out src type; do
  [ "$kind" = quant ] || continue
  [ -f "$APPROX_MODELS/$out" ] && continue
  if [ ! -f "$APPROX_MODELS/$src" ]; then
    echo "models: error: $APPROX_MODELS/$src not found (run scripts/setup.sh)" >&2
    exit 1
  fi
  echo "models: quantizing $src to $type ($out)" >&2
  "$tool" quantize "$APPROX_MODELS/$src" "$APPROX_MODELS/$out" "$type"
done < "$approx_root/ml/models.txt"
