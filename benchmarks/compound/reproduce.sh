#!/usr/bin/env bash
# Reruns the three compound systems at issue 38's certification sizes on the
# instruct models (Qwen2.5-Coder 1.5B exact), then writes summary.md:
# 150 tuning questions, 500 validation (calibration) and 500 evaluation
# (test) questions (LLM + tools: 300 and 300), builds timed uncached on the
# first 100 evaluation questions, candidates screened on the first 50
# tuning questions, two hours of tuning per system. LLM calls are memoised
# in one memo and the builds and tuning stores kept under the cache, so a
# run cut short continues: `reproduce.sh --resume`. Many hours on 2 cores
# (about 4 s per new 1.5B call). Needs scripts/setup.sh, scripts/build.sh,
# scripts/models.sh and scripts/fetch-instruct-models.sh first.
# summary.md's "Reproduce" section gives each published run's own command.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/paths.sh"
common=(--questions 150 --timing 100 --screen 50 --time-budget 7200 --max-evals 400 --seed 1
        --memo "$APPROX_CACHE_DIR/llm-memo-premise" --work "$APPROX_CACHE_DIR/compound-work" "$@")
python3 "$here/compound.py" rag_bm25 --validation 500 --evaluation 500 "${common[@]}"
python3 "$here/compound.py" rag_kb --validation 500 --evaluation 500 "${common[@]}"
python3 "$here/compound.py" llm_tools --validation 300 --evaluation 300 "${common[@]}"
python3 "$here/compound.py" --summary
