#!/usr/bin/env bash
# The main job: set up, build, then compile the bundled annotated example
# once (runtime-table mode) and run it exactly and approximately side by side.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${APPROX_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
out="$build/examples"
mkdir -p "$out"
"$build/bin/approx-compile" "$root/examples/integrate/integrate.mlir" \
  "$root/examples/integrate/main.c" -I"$root/runtime/include" \
  --approx-runtime-table -o "$out/integrate"
"$out/integrate"
