#!/bin/sh
# approx-tune's evaluation command for the kernel benchmarks.
#   evaluate.sh APPROX_QOS REFDIR EXE SIZE METRIC...
# Runs EXE on the input set APPROX_INPUT_SET names: the tuning input
# (instance 0), the evaluation (test) inputs (APPROX_EVAL_INSTANCES, default
# instances 1-5) or the calibration inputs (APPROX_CALIBRATION_INSTANCES,
# default instances 100-249); compares each output with the exact one in
# REFDIR/<size>-<instance>.out using `approx-qos METRIC...`, and prints the
# summed kernel time and the mean QoS as `approx-result: time=<s> qos=<q>`.
# With APPROX_QOS_DETAIL set, writes there each input's QoS as
# `<instance> <qos>` (the exact configuration's is 1 on every input).
qos_tool=$1 refdir=$2 exe=$3 size=$4
shift 4
case "${APPROX_INPUT_SET:-tuning}" in
evaluation) instances=${APPROX_EVAL_INSTANCES:-"1 2 3 4 5"} ;;
calibration) instances=${APPROX_CALIBRATION_INSTANCES:-$(seq 100 249)} ;;
*) instances="0" ;;
esac
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
# A run stopped by a signal removes it too (sh runs EXIT traps on exit only).
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
if [ -n "${APPROX_QOS_DETAIL:-}" ]; then
  : > "$APPROX_QOS_DETAIL" || exit 1
fi
results=""
for i in $instances; do
  t=$("$exe" --size "$size" --instance "$i" --output "$out") || exit $?
  q=$("$qos_tool" "$@" "$refdir/$size-$i.out" "$out") || exit $?
  results="$results $t $q"
  if [ -n "${APPROX_QOS_DETAIL:-}" ]; then
    echo "$i $q" >> "$APPROX_QOS_DETAIL" || exit 1
  fi
done
echo "$results" | awk '{ for (i = 1; i <= NF; i += 2) { t += $i; q += $(i + 1); n++ }
  printf "approx-result: time=%.9f qos=%.9f\n", t, q / n }'
