#!/usr/bin/env bash
# The whole test suite: set up (Debian packages, the ML stack and models),
# build, run the lit tests (IR shape, diagnostics, execution, the LLM engine
# and the compound systems with real weights), the gtest unit tests, the
# Python API's pytest suite and a short fuzzing run, then print one summary.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${APPROX_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" || exit 1
# APPROX_PREBUILT: the caller has just built $build (scripts/test-sanitized.sh,
# whose sanitizer preload would crash the linker).
if [ -z "${APPROX_PREBUILT:-}" ]; then
  "$root/scripts/build.sh" || exit 1
fi
"$root/scripts/models.sh" || exit 1
source "$root/scripts/paths.sh"

passed=0
failed=0

# run NAME PASS_PATTERN FAIL_PATTERN CMD...: runs CMD, shows its output, and
# adds the counts its summary reports (sed patterns capturing the number);
# a failing command that reports no failure counts as one.
run() {
  local name=$1 pass_re=$2 fail_re=$3
  shift 3
  echo "== $name"
  local out rc p f
  out=$(mktemp)
  "$@" | tee "$out"
  rc=${PIPESTATUS[0]}
  p=$(sed -n "s/$pass_re/\1/p" "$out" | tail -1)
  f=$(sed -n "s/$fail_re/\1/p" "$out" | tail -1)
  rm -f "$out"
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then failed=$((failed + 1)); fi
}

run lit '^ *Passed *: *\([0-9]*\).*' '^ *Failed *: *\([0-9]*\).*' \
  /usr/lib/llvm-22/bin/lit -sv "$build/test"
# The unit tests' and pytest's scratch files in this run's own directory
# (gtest's TempDir() and pytest's base temp are fixed names under /tmp).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for t in "$build"/unittests/*Tests; do
  run "$(basename "$t")" '^\[  PASSED  \] \([0-9]*\) test.*' \
    '^\[  FAILED  \] \([0-9]*\) test.*' env TEST_TMPDIR="$scratch/" "$t"
done

# The Python API (approx_runtime) against the real tools and libraries.
run pytest '^pytest-summary: \([0-9]*\) passed.*' \
  '^pytest-summary: [0-9]* passed, \([0-9]*\) failed.*' \
  env APPROX_BUILD_DIR="$build" "$APPROX_VENV/bin/python" -m pytest -q -p no:cacheprovider \
  --basetemp "$scratch/pytest" "$root/python/tests"

# A short fuzzing run of every libFuzzer target (scripts/fuzz.sh; the long
# run is documented in docs/reliability.md). Not on the sanitized build,
# whose libraries carry GCC's sanitizer runtime.
if [ -z "${APPROX_SKIP_FUZZ:-}" ]; then
  run fuzz '^fuzz: \([0-9]*\) targets clean.*' '^fuzz: [0-9]* targets clean, \([0-9]*\) failed.*' \
    "$root/scripts/fuzz.sh" "${APPROX_FUZZ_SECONDS:-15}"
fi

echo
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
