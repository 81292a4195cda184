#!/usr/bin/env bash
# The main job: set up, build, then tune the kmeans benchmark at small size
# (static and dynamic spaces, held-out evaluation inputs, baked deployment
# builds) and print its report: speedups at QoS loss <= 3/6/9 %, the
# frontiers, and the paper's numbers. A few minutes on 2 cores. Results go
# to build/demo-results (benchmarks/kernels.py --help for the full runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${APPROX_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
python3 "$root/benchmarks/kernels.py" kmeans --size small --max-evals 60 \
  --build "$build" --results "$build/demo-results"
