#!/usr/bin/env bash
# Reruns the three compound systems as reported in
# benchmarks/results/compound/summary.md (their settings are in each
# system's summary.json and in summary.md's "Reproduce" section), then writes
# summary.md. Hours on 2 cores: LLM calls dominate. Needs scripts/setup.sh,
# scripts/build.sh and scripts/models.sh first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/compound.py" rag_bm25 --questions 60 --time-budget 3000 --max-evals 400 --seed 1
python3 "$here/compound.py" rag_kb --questions 60 --time-budget 1500 --max-evals 400 --seed 1
python3 "$here/compound.py" llm_tools --questions 32 --time-budget 1800 --max-evals 400 --seed 1
python3 "$here/compound.py" --summary
