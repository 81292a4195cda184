#!/bin/sh
# approx-tune's evaluation command for the kernel benchmarks.
#   evaluate.sh APPROX_QOS REFDIR EXE SIZE METRIC...
# Runs EXE on the tuning input (instance 0) or, with
# APPROX_INPUT_SET=evaluation, on the five evaluation inputs (instances 1-5),
# compares each output with the exact one in REFDIR/<size>-<instance>.out
# using `approx-qos METRIC...`, and prints the summed kernel time and the
# mean QoS as `approx-result: time=<s> qos=<q>`.
qos_tool=$1 refdir=$2 exe=$3 size=$4
shift 4
case "${APPROX_INPUT_SET:-tuning}" in
evaluation) instances="1 2 3 4 5" ;;
*) instances="0" ;;
esac
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
results=""
for i in $instances; do
  t=$("$exe" --size "$size" --instance "$i" --output "$out") || exit $?
  q=$("$qos_tool" "$@" "$refdir/$size-$i.out" "$out") || exit $?
  results="$results $t $q"
done
echo "$results" | awk '{ for (i = 1; i <= NF; i += 2) { t += $i; q += $(i + 1); n++ }
  printf "approx-result: time=%.9f qos=%.9f\n", t, q / n }'
