#!/bin/sh
# approx-tune's evaluation command for the compound systems.
#   evaluate.sh APPROX_QOS METRIC PREFIX DATA MODELS REFDIR EXE [ARG...]
# Runs the system EXE (with ARG..., e.g. --embeddings FILE) on the tuning
# questions (DATA/PREFIX-tuning.tsv) or, with APPROX_INPUT_SET=evaluation, on
# the evaluation questions, scores its answers with `approx-qos METRIC`
# (nq-accuracy or graded-accuracy), and prints the system's time and its
# QoS: accuracy relative to the exact system's on the same questions
# (REFDIR/<set>.accuracy), capped at 1 (approx-qos METRIC ... EXACT).
# The accuracy itself goes to stderr. APPROX_INPUT_SET=calibration runs the
# validation questions (disjoint from both); APPROX_INPUT_SET=screen the
# screen questions REFDIR/screen.tsv (the first tuning questions: approx-tune
# --screen-below measures a candidate there first); with APPROX_QOS_DETAIL
# set, each question's score goes there (`q<line> <score>`).
qos_tool=$1 metric=$2 prefix=$3 data=$4 models=$5 refdir=$6 exe=$7
shift 7
case "${APPROX_INPUT_SET:-tuning}" in
evaluation) set=evaluation ;;
calibration) set=validation ;;
screen) set=screen ;;
*) set=tuning ;;
esac
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
# A run stopped by a signal removes it too (sh runs EXIT traps on exit only).
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
questions=$data/$prefix-$set.tsv
[ "$set" = screen ] && questions=$refdir/screen.tsv
t=$("$exe" --passages "$data/passages.tsv" --questions "$questions" \
  --models "$models" --output "$out" "$@") || exit $?
exact=$(cat "$refdir/$set.accuracy") || exit 1
if [ -n "${APPROX_QOS_DETAIL:-}" ]; then
  acc=$("$qos_tool" "$metric" "$out" "$questions" --detail "$APPROX_QOS_DETAIL") || exit $?
else
  acc=$("$qos_tool" "$metric" "$out" "$questions") || exit $?
fi
qos=$("$qos_tool" "$metric" "$out" "$questions" "$exact") || exit $?
echo "evaluate: accuracy $acc (exact $exact)" >&2
echo "approx-result: time=$t qos=$qos"
