#!/bin/sh
# approx-tune's screening test: deterministic_eval.sh's time and QoS, less
# 0.1 QoS for squash_knob_val 2 (far from every loss level) on every input
# set; the screen set's QoS is 0.01 lower still (a noisy small set). Each
# run appends "<input set> <configuration>" to $LOG. With SCREEN_FAIL=1 the
# screen set's run fails for squash_knob_val 1.
cfg=$(tr -d ' \n{}"' < "$APPROX_CONFIG")
echo "$APPROX_INPUT_SET $cfg" >> "$LOG"
case "$cfg" in *squash_knob_val:2*) far=0.1 ;; *) far=0 ;; esac
if [ "$APPROX_INPUT_SET" = screen ]; then
  case "$cfg" in *squash_knob_val:1*) [ -n "${SCREEN_FAIL:-}" ] && { echo "screen run broke" >&2; exit 3; } ;; esac
  far="$far + 0.01"
fi
sh "$(dirname "$0")/deterministic_eval.sh" |
  awk -v far="$far" '{ split(far, f, " \\+ "); d = f[1] + f[2];
    sub(/^time=/, "", $2); sub(/^qos=/, "", $3);
    printf "approx-result: time=%s qos=%.6f\n", $2, $3 - d }'
