#!/bin/sh
# A deterministic evaluation of examples/tune/kernel.c's space for the
# distributed tests: time and QoS follow from the configuration alone. With
# KILL_WORKER_AT=N and KILL_DIR=DIR, the N-th evaluation (counted in DIR)
# kills the MPI worker measuring it, once. Workers evaluate concurrently, so
# each evaluation claims its number atomically (mkdir succeeds for one only).
if [ -n "$KILL_WORKER_AT" ]; then
  n=1
  while ! mkdir "$KILL_DIR/$n" 2>/dev/null; do n=$((n + 1)); done
  if [ "$n" = "$KILL_WORKER_AT" ] && [ ! -e "$KILL_DIR/killed" ]; then
    touch "$KILL_DIR/killed"; kill -9 $PPID; exit 1
  fi
fi
cfg=$(tr -d ' \n{}"' < "$APPROX_CONFIG")
val() { echo "$cfg" | tr ',' '\n' | sed -n "s/^$1://p"; }
awk -v t="$(val row_mean_threshold_0)" -v a="$(val row_mean_decision_0)" \
    -v b="$(val row_mean_decision_1)" -v s="$(val squash_knob_val)" 'BEGIN {
  time = 1 / (1 + 0.1 * a * t / 10 + 0.1 * b * (10 - t) / 10) / (1 + 0.1 * s)
  loss = 0.004 * a * a * t / 10 + 0.006 * b * b * (10 - t) / 10 + 0.01 * s * s
  printf "approx-result: time=%.6f qos=%.6f\n", time, 1 - loss
}'
