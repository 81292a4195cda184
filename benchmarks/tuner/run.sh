#!/usr/bin/env bash
# approx-tune against OpenTuner and Optuna on synthetic spaces with known
# optima (compare.py; docs/tuning.md). Makes each peer's own environment once
# (requirements-opentuner.txt, requirements-optuna.txt; under the cache
# directory, keyed by the requirements' hash) and runs the comparison with
# the project environment's approx_runtime (scripts/build.sh first).
# Arguments go to compare.py; the default is the full comparison (the
# hand-made easy and hard spaces and the generated families, 20 seeds each,
# budgets 50/100/200/400/1000), written to benchmarks/results/tuner/.
# `run.sh real [ARGS]`: the five kernels' real spaces instead (real_spaces.py;
# 5 seeds, budgets 50/100/200), written to benchmarks/results/tuner/real/.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/scripts/paths.sh"

# peer_env NAME REQUIREMENTS: the environment's folder (made when missing).
peer_env() {
  local req=$2 env
  env=$APPROX_CACHE_DIR/$1-$(sha256sum "$req" | cut -c1-12)
  if [ ! -x "$env/bin/python" ]; then
    echo "tuner benchmark: making $1's environment in $env" >&2
    rm -rf "$env.part"
    /usr/bin/python3 -m venv "$env.part"
    "$env.part/bin/python" -m pip install --disable-pip-version-check -q \
      --no-build-isolation --require-hashes -r "$req" >&2 ||
      { echo "tuner benchmark: error: installing $req failed (see above)" >&2; exit 1; }
    mv "$env.part" "$env"
  fi
  echo "$env"
}
opentuner=$(peer_env opentuner "$root/benchmarks/tuner/requirements-opentuner.txt")
optuna=$(peer_env optuna "$root/benchmarks/tuner/requirements-optuna.txt")
if ! "$APPROX_VENV/bin/python" -c "import approx_runtime" 2>/dev/null; then
  echo "tuner benchmark: error: approx_runtime is not in $APPROX_VENV (run scripts/build.sh)" >&2
  exit 1
fi
script=compare.py results=$root/benchmarks/results/tuner
if [ "${1:-}" = real ]; then
  shift
  script=real_spaces.py results=$results/real
fi
out=()
[[ " $* " == *" --out "* ]] || out=(--out "$results")
exec "$APPROX_VENV/bin/python" "$root/benchmarks/tuner/$script" \
  --opentuner-python "$opentuner/bin/python" --optuna-python "$optuna/bin/python" \
  "${out[@]}" "$@"
