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
# APPROX_CALIBRATION_JOBS=N runs N calibration inputs at once (default 1).
# Certification reads only their scores; their times, each the program's
# own kernel time, then share the machine. The tuning and evaluation sets
# always run one input at a time.
qos_tool=$1 refdir=$2 exe=$3 size=$4
shift 4
jobs=1
case "${APPROX_INPUT_SET:-tuning}" in
evaluation) instances=${APPROX_EVAL_INSTANCES:-"1 2 3 4 5"} ;;
calibration)
  instances=${APPROX_CALIBRATION_INSTANCES:-$(seq 100 249)}
  jobs=${APPROX_CALIBRATION_JOBS:-1}
  case "$jobs" in
  '' | *[!0-9]* | 0)
    echo "evaluate.sh: APPROX_CALIBRATION_JOBS must be a positive integer, not '$jobs'" >&2
    exit 2 ;;
  esac ;;
*) instances="0" ;;
esac
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
# A run stopped by a signal stops its inputs and removes the folder too (sh
# runs EXIT traps on exit only).
stop() {
  [ -n "$pids" ] && kill $pids 2>/dev/null && wait
  exit "$1"
}
trap 'stop 129' HUP; trap 'stop 130' INT; trap 'stop 143' TERM
if [ -n "${APPROX_QOS_DETAIL:-}" ]; then
  : > "$APPROX_QOS_DETAIL" || exit 1
fi
# measure INSTANCE METRIC...: "<time> <qos>" in $dir/INSTANCE.res, or the
# failing exit status in $dir/INSTANCE.rc.
measure() {
  i=$1
  shift
  if t=$("$exe" --size "$size" --instance "$i" --output "$dir/$i.out") &&
    q=$("$qos_tool" "$@" "$refdir/$size-$i.out" "$dir/$i.out"); then
    echo "$t $q" > "$dir/$i.res"
  else
    echo $? > "$dir/$i.rc"
  fi
  rm -f "$dir/$i.out"
}
# Waits for the batch; its first failing input (in input order) fails the
# run with its status.
finish() {
  wait
  for c in $batch; do
    if [ -r "$dir/$c.rc" ]; then
      exit "$(cat "$dir/$c.rc")"
    fi
  done
  pids="" batch="" n=0
}
pids="" batch="" n=0
for i in $instances; do
  measure "$i" "$@" &
  pids="$pids $!" batch="$batch $i" n=$((n + 1))
  [ "$n" -lt "$jobs" ] || finish
done
finish
for i in $instances; do
  cat "$dir/$i.res" >> "$dir/results" || exit 1
  if [ -n "${APPROX_QOS_DETAIL:-}" ]; then
    echo "$i $(cut -d' ' -f2 "$dir/$i.res")" >> "$APPROX_QOS_DETAIL" || exit 1
  fi
done
awk '{ t += $1; q += $2; n++ }
  END { printf "approx-result: time=%.9f qos=%.9f\n", t, q / n }' "$dir/results"
