"""The compound systems' QA model sets, the exact model first, as file names
in the models folder (scripts/paths.sh's APPROX_MODELS):

  instruct  the systems' own defaults, read from common/rag.h's
            RAG_MODEL_FILES: Qwen2.5-Coder 1.5B and 0.5B Instruct
            (ml/models-instruct.txt, scripts/fetch-instruct-models.sh),
            Gemma 3 270M Q4_K_M and Q4_0, SmolLM2-135M-Instruct;
  small     Gemma 3 270M Q4_K_M and its Q4_0, Q3_K_M and Q2_K
            requantisations, SmolLM2-135M-Instruct: what the test command
            fetches (the tests run them), and the set of the results before
            issue 38.

A set is passed to a system as `--qa-model A,B,...` (qa_arg)."""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SMALL = ["gemma-3-270m-q4_k_m.gguf", "gemma-3-270m-q4_0.gguf", "gemma-3-270m-q3_k_m.gguf",
         "gemma-3-270m-q2_k.gguf", "smollm2-135m-instruct-q4_1.gguf"]


def instruct():
    """RAG_MODEL_FILES of common/rag.h (the one place that lists them)."""
    with open(os.path.join(HERE, "common", "rag.h"), encoding="utf-8") as f:
        text = f.read()
    init = re.search(r"RAG_MODEL_FILES\[RAG_NMODELS\] = \{(.*?)\};", text, re.S)
    if not init:
        raise RuntimeError("common/rag.h: RAG_MODEL_FILES not found")
    return re.findall(r'"([^"]+)"', init.group(1))


SETS = {"instruct": instruct, "small": lambda: list(SMALL)}


def models(name):
    """The files of set `name` (one of SETS), the exact model first."""
    return SETS[name]()


def qa_arg(name):
    """The systems' command-line arguments that select set `name`."""
    return ["--qa-model", ",".join(models(name))]
