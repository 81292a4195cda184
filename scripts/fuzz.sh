#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzz.cpp; clang 22 with ASan and
# UBSan, against the libraries of build/), replays every committed regression
# input (fuzz/regressions/<target>/), then fuzzes each target for SECONDS
# (default 60) from a seed corpus made of the test suite's inputs. A crash
# is saved to fuzz/regressions/<target>/ (commit it with its fix) and fails
# the run. Usage: scripts/fuzz.sh [SECONDS]   (CI runs it with 15)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${APPROX_BUILD_DIR:-$root/build}
seconds=${1:-60}
out=$build/fuzz
mkdir -p "$out"
clang=/usr/lib/llvm-22/bin/clang++
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -fno-omit-frame-pointer
       -I"$root/include" -I"$build/include" -I"$root/runtime/include"
       -I/usr/lib/llvm-22/include -D_GLIBCXX_USE_CXX11_ABI=1)
libs=(-L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib)

# target: extra sources compiled instrumented, then libraries.
build_target() {
  local name=$1
  shift
  if [ "$out/$name" -nt "$root/fuzz/$name.cpp" ] && [ "$out/$name" -nt "$build/bin/approx-opt" ]; then
    return
  fi
  echo "fuzz: building $name" >&2
  "$clang" "${flags[@]}" "$root/fuzz/$name.cpp" "$@" "${libs[@]}" -o "$out/$name"
}
build_target annotations_fuzz "$root/lib/Frontend/Annotations.cpp" \
  "$build/lib/libApproxDialect.a" -lMLIR -lLLVM
# The runtime is C: compiled on its own, instrumented.
/usr/lib/llvm-22/bin/clang -std=gnu11 -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
  -I"$root/runtime/include" -c "$root/runtime/lib/approx_runtime.c" -o "$out/approx_runtime.o"
build_target runtime_config_fuzz "$out/approx_runtime.o" -lpthread
build_target store_fuzz "$root/lib/Tuner/Store.cpp" \
  "$build/lib/Tuner/libApproxTuner.a" "$build/lib/libapprox_runtime.a" -lsqlite3 -lpthread
build_target pipeline_fuzz "$build/lib/libApproxPipeline.a" \
  "$build/lib/libApproxTransforms.a" "$build/lib/libApproxFrontend.a" \
  "$build/lib/libApproxDialect.a" -lMLIR -lLLVM

# Seed corpora from the test suite's own inputs.
seed() {
  local name=$1
  shift
  local dir=$out/corpus/$name
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] && cp -n "$f" "$dir/$(basename "$f")" 2>/dev/null || true
  done
}
seed annotations_fuzz "$root"/test/approx-cc/*.c "$root"/test/approx-cc/Inputs/*.c \
  "$root"/examples/tune/*.c "$root"/benchmarks/*/*.c
seed runtime_config_fuzz "$root"/test/*/Inputs/*.json "$root"/benchmarks/*/*.json
seed pipeline_fuzz "$root"/test/Transforms/*.mlir "$root"/test/Dialect/Approx/*.mlir \
  "$root"/test/Driver/Inputs/*.mlir
if [ ! -f "$out/corpus/store_fuzz/tune.db" ]; then
  mkdir -p "$out/corpus/store_fuzz"
  tmp=$(mktemp -d)
  "$build/bin/approx-tune" --space "$root/examples/tune/kernel.c" \
    --eval "$root/test/Tuner/Inputs/deterministic_eval.sh" --max-evals 8 \
    --repetitions 1 --timeout 1 --out "$tmp" --quiet >/dev/null
  cp "$tmp/tune.db" "$out/corpus/store_fuzz/tune.db"
  rm -rf "$tmp"
fi

status=0
passed=0
failed=0
for name in annotations_fuzz runtime_config_fuzz store_fuzz pipeline_fuzz; do
  before=$status
  regressions=$root/fuzz/regressions/$name
  mkdir -p "$regressions"
  if compgen -G "$regressions/*" >/dev/null; then
    echo "fuzz: $name: replaying $(ls "$regressions" | wc -l) regression inputs" >&2
    ASAN_OPTIONS=detect_leaks=0 "$out/$name" "$regressions"/* >/dev/null 2>"$out/$name.replay.log" || {
      echo "fuzz: $name: a regression input fails again:" >&2
      tail -30 "$out/$name.replay.log" >&2
      status=1
    }
  fi
  echo "fuzz: $name: $seconds s from $(ls "$out/corpus/$name" | wc -l) seed inputs" >&2
  # A parse that crashed inside MLIR (guarded, CrashGuard.h) leaves its
  # half-built IR unreachable: leaks are not findings for the pipeline.
  leaks=1
  [ "$name" = pipeline_fuzz ] && leaks=0
  if ! ASAN_OPTIONS=detect_leaks=$leaks "$out/$name" -detect_leaks=$leaks -max_total_time="$seconds" -max_len=65536 -timeout=10 \
      -rss_limit_mb=4096 -artifact_prefix="$regressions/" \
      "$out/corpus/$name" >"$out/$name.log" 2>&1; then
    echo "fuzz: $name: crash, saved under fuzz/regressions/$name/:" >&2
    grep -A20 "ERROR\|runtime error\|deadly signal" "$out/$name.log" | head -40 >&2
    status=1
  fi
  grep -E "^#[0-9]+[[:space:]]*DONE" "$out/$name.log" | sed "s/^/fuzz: $name: /" >&2 || true
  if [ "$status" = "$before" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz: $passed targets clean, $failed failed"
exit $status
