#!/bin/sh
# An evaluation command that cleans up as benchmarks/*/evaluate.sh do: its
# temporary file in $SCRATCH is removed by an EXIT trap, and HUP/INT/TERM
# become an exit so that the trap runs (a SIGKILL runs no trap). It then
# hangs: `sleep 4321`, until it is stopped.
out=$(mktemp "$SCRATCH/eval-XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
sleep 4321
echo "approx-result: time=1 qos=1"
