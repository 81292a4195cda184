#!/usr/bin/env bash
# Runs the foundation benchmarks and prints markdown (medians and ratios
# measured in the same run). Usage: benchmarks/run.sh [> report.md]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${APPROX_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" >&2
"$root/scripts/build.sh" >&2
echo "# ApproxMLIR foundation benchmarks"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m), LLVM/MLIR 22"
echo
"$build/bin/approx-bench-pipeline"
echo
"$build/bin/approx-bench-dispatch"
echo
python3 "$root/benchmarks/cc/run.py" "$build"
echo
python3 "$root/benchmarks/tune/run.py" "$build"
echo
echo "## Pipeline time vs number of knobs"
echo
python3 "$root/benchmarks/scale/knobs.py" "$build"
