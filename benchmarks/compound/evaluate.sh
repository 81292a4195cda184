#!/bin/sh
# approx-tune's evaluation command for the compound systems.
#   evaluate.sh APPROX_QOS METRIC PREFIX DATA MODELS REFDIR EXE [ARG...]
# Runs the system EXE (with ARG..., e.g. --embeddings FILE) on the tuning
# questions (DATA/PREFIX-tuning.tsv) or, with APPROX_INPUT_SET=evaluation, on
# the evaluation questions, scores its answers with `approx-qos METRIC`
# (nq-accuracy or graded-accuracy), and prints the system's time and its
# QoS: accuracy relative to the exact system's on the same questions
# (REFDIR/<set>.accuracy), capped at 1 (approx-qos METRIC ... EXACT).
# The accuracy itself goes to stderr.
qos_tool=$1 metric=$2 prefix=$3 data=$4 models=$5 refdir=$6 exe=$7
shift 7
case "${APPROX_INPUT_SET:-tuning}" in
evaluation) set=evaluation ;;
*) set=tuning ;;
esac
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
questions=$data/$prefix-$set.tsv
t=$("$exe" --passages "$data/passages.tsv" --questions "$questions" \
  --models "$models" --output "$out" "$@") || exit $?
exact=$(cat "$refdir/$set.accuracy") || exit 1
acc=$("$qos_tool" "$metric" "$out" "$questions") || exit $?
qos=$("$qos_tool" "$metric" "$out" "$questions" "$exact") || exit $?
echo "evaluate: accuracy $acc (exact $exact)" >&2
echo "approx-result: time=$t qos=$qos"
