#!/usr/bin/env bash
# Distributed tuning throughput: evaluations per second of one approx-tune
# run (examples/tune/kernel.c's space, 48 evaluations, batch 8) on 1, 2, 4
# and 8 MPI workers on this machine, each evaluation costing COST seconds of
# waiting (simulated: a sleep, then a deterministic result), against the
# local run (--workers 1) in the same session; median of 3 rounds. Writes
# benchmarks/results/tuner/scaling.md (docs/tuning.md).
#   usage: benchmarks/tuner/scaling.sh [COST (default 0.25)]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cost=${1:-0.25}
tune=$root/build/bin/approx-tune
space=$root/examples/tune/kernel.c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A run stopped by a signal removes it too (sh runs EXIT traps on exit only).
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
cat > "$work/eval.sh" <<EVAL
#!/bin/sh
sleep $cost
exec "$root/test/Tuner/Inputs/mpi_eval.sh"
EVAL
chmod +x "$work/eval.sh"
export OMPI_MCA_orte_abort_on_non_zero_status=1
mpirun=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
run() { # label, command...: seconds of the run
  local label=$1; shift
  rm -rf "$work/out"
  local start end
  start=$(date +%s.%N)
  "$@" --space "$space" --eval "$work/eval.sh" --max-evals 48 --repetitions 1 \
    --seed 1 --out "$work/out" --quiet < /dev/null > /dev/null
  end=$(date +%s.%N)
  echo "$label $(echo "$end - $start" | bc)"
}
results=()
for round in 1 2 3; do
  echo "scaling: round $round" >&2
  results+=("$(run local "$tune" --workers 1)")
  for w in 1 2 4 8; do
    results+=("$(run "$w" "${mpirun[@]}" -np $((w + 1)) "$tune" --mpi --batch 8)")
  done
done
printf '%s\n' "${results[@]}" | /usr/bin/python3 -c '
import statistics, sys
cost = float(sys.argv[1])
runs = {}
for line in sys.stdin:
    label, seconds = line.split()
    runs.setdefault(label, []).append(float(seconds))
base = statistics.median(runs["local"])
print("# Distributed tuning throughput (approx-tune --mpi)\n")
print(f"One run of 48 evaluations (plus the baseline) of examples/tune/kernel.c, each costing "
      f"{cost} s of waiting (simulated), batch 8; median of 3 rounds, wall-clock of the whole "
      "command including MPI start-up. Written by `benchmarks/tuner/scaling.sh`.\n")
print("| workers | seconds | evaluations/s | speed-up vs local |")
print("|---|---|---|---|")
print(f"| local (--workers 1) | {base:.2f} | {49 / base:.1f} | 1.00x |")
for w in ("1", "2", "4", "8"):
    s = statistics.median(runs[w])
    print(f"| {w} MPI | {s:.2f} | {49 / s:.1f} | {base / s:.2f}x |")
' "$cost" | tee "$root/benchmarks/results/tuner/scaling.md"
