#!/bin/sh
# approx-tune's evaluation command for the compound systems.
#   evaluate.sh APPROX_QOS DATA MODELS REFDIR EXE [ARG...]
# Runs the system EXE (with ARG..., e.g. rag_kb's --embeddings FILE) on the
# tuning questions (DATA/questions-tuning.tsv) or,
# with APPROX_INPUT_SET=evaluation, on the evaluation questions, scores its
# answers with `approx-qos nq-accuracy`, and prints the system's time and its
# QoS: accuracy relative to the exact system's on the same questions
# (REFDIR/<set>.accuracy), capped at 1 (approx-qos nq-accuracy ... EXACT).
# The accuracy itself goes to stderr.
qos_tool=$1 data=$2 models=$3 refdir=$4 exe=$5
shift 5
case "${APPROX_INPUT_SET:-tuning}" in
evaluation) set=evaluation ;;
*) set=tuning ;;
esac
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
t=$("$exe" --passages "$data/passages.tsv" --questions "$data/questions-$set.tsv" \
  --models "$models" --output "$out" "$@") || exit $?
exact=$(cat "$refdir/$set.accuracy") || exit 1
acc=$("$qos_tool" nq-accuracy "$out" "$data/questions-$set.tsv") || exit $?
qos=$("$qos_tool" nq-accuracy "$out" "$data/questions-$set.tsv" "$exact") || exit $?
echo "evaluate: accuracy $acc (exact $exact)" >&2
echo "approx-result: time=$t qos=$qos"
