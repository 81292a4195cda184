#!/bin/sh
# approx-tune's evaluation command for benchmarks/schedule: builds SPACE.mlir
# with the configuration ($APPROX_CONFIG; schedule choices are made at
# compile time; -march=native as the ML route builds) and runs the driver
# once.
# Usage: eval.sh APPROX_COMPILE SPACE.mlir
set -e
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# A run stopped by a signal removes it too (sh runs EXIT traps on exit only).
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
"$1" "$2" "$here/chain_driver.c" --approx-config="$APPROX_CONFIG" \
  --Xclang-driver=-march=native -o "$d/chain" -lm
"$d/chain"
