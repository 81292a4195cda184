#!/bin/sh
# A deterministic evaluation of examples/tune/kernel.c's space for the
# tuner's stress test: time and QoS follow from the configuration alone, and
# some configurations misbehave on purpose: squash_knob_val 2 with the
# threshold at 7 crashes, with the threshold at 8 hangs (the tuner's timeout
# ends it), with the threshold at 9 prints garbage (a 1 MiB line) and no
# result line.
cfg=$(tr -d ' \n{}"' < "$APPROX_CONFIG")
val() { echo "$cfg" | tr ',' '\n' | sed -n "s/^$1://p"; }
t=$(val row_mean_threshold_0); d0=$(val row_mean_decision_0)
d1=$(val row_mean_decision_1); s=$(val squash_knob_val)
if [ "$s" = 2 ]; then
  case "$t" in
    7) kill -SEGV $$ ;;
    8) exec sleep 30 ;;
    9) head -c 1048576 /dev/zero | tr '\0' 'x'; echo; exit 0 ;;
  esac
fi
awk -v t="$t" -v a="$d0" -v b="$d1" -v s="$s" 'BEGIN {
  work = 1 + 0.3 * (a > 0) * (10 - t) / 10 + 0.3 * (b > 0) * t / 10
  cost = 4 - (a / 8) * (10 - t) / 10 - (b / 8) * t / 10 - 0.4 * s
  loss = 0.004 * a * (10 - t) / 10 + 0.006 * b * t / 10 + 0.01 * s * s
  printf "approx-result: time=%.6f qos=%.6f\n", cost / 4, 1 - loss / work
}'
