#!/bin/sh
# The evaluation command of test/Tuner/schedule-space.test: a build per
# configuration (schedule choices are compile-time), then one run.
# Usage: schedule_eval.sh APPROX_COMPILE SPACE.mlir DRIVER.c
set -e
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$1" "$2" "$3" --approx-config="$APPROX_CONFIG" -o "$d/exe"
"$d/exe"
