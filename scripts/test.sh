#!/usr/bin/env bash
# The whole test suite: set up, build, run the lit tests (IR shape,
# diagnostics, execution) and the gtest unit tests, then print one summary.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${APPROX_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" || exit 1
"$root/scripts/build.sh" || exit 1

passed=0
failed=0

echo "== lit"
lit_out=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$build/test" | tee "$lit_out"
lit_rc=${PIPESTATUS[0]}
lit_pass=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$lit_out" | tail -1)
lit_fail=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$lit_out" | tail -1)
passed=$((passed + ${lit_pass:-0}))
failed=$((failed + ${lit_fail:-0}))
if [ "$lit_rc" -ne 0 ] && [ "${lit_fail:-0}" -eq 0 ]; then failed=$((failed + 1)); fi
rm -f "$lit_out"

for t in "$build"/unittests/*Tests; do
  echo "== $(basename "$t")"
  out=$(mktemp)
  "$t" | tee "$out"
  rc=${PIPESTATUS[0]}
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -1)
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then failed=$((failed + 1)); fi
  rm -f "$out"
done

echo
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
