# -*- Python -*-
import os
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "APPROX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".cpp", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.approx_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.with_system_environment(["HOME"])
llvm_config.use_default_substitutions()
# FileCheck, not and count live in LLVM's tool directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["approx-opt", "approx-compile", "approx-cc", "approx-qos", "approx-tune",
                                    "approx-llm"],
                                   [config.approx_tools_dir])
config.substitutions.append(("%cc", config.clang))
config.substitutions.append(("%approx_bin", config.approx_tools_dir))
config.substitutions.append(
    ("%runtime_include", os.path.join(config.approx_src_root, "runtime", "include")))
# The ML stack (scripts/paths.sh): model files and the LLM engine.
paths = subprocess.run(["bash", "-c", "source \"$1\" && echo \"$APPROX_MODELS\" && echo \"$APPROX_CACHE_DIR\" && echo \"$APPROX_VENV\" && echo \"$APPROX_LLAMA_ROOT\"",
                        "paths", os.path.join(config.approx_src_root, "scripts", "paths.sh")],
                       capture_output=True, text=True, check=True).stdout.split("\n")
config.substitutions.append(("%models", paths[0]))
# The compound systems' QA models in the tests: the small ones (Gemma 3 270M,
# its requantisations, SmolLM2) in place of the instruct models that are
# their defaults (benchmarks/compound/common/rag.h; the instruct weights are
# not fetched by the test command).
sys.path.insert(0, os.path.join(config.approx_src_root, "benchmarks", "compound"))
import qa_models  # noqa: E402  (the QA model sets)
config.substitutions.append(("%small_qa", " ".join(qa_models.qa_arg("small"))))
# llama.cpp's headers and libraries (the sanitized engine build of
# test/Compound/sanitized.test), and clang++ beside %cc.
config.substitutions.append(("%llama_root", paths[3]))
config.substitutions.append(("%cxx", config.clang + "++"))
config.environment["APPROX_MODELS"] = paths[0]
config.environment["APPROX_CACHE_DIR"] = paths[1]
# The project environment's Python (numpy, gguf, safetensors, tokenizers).
config.substitutions.append(("%venv_python", os.path.join(paths[2], "bin", "python")))
config.substitutions.append(
    ("%llm_include", os.path.join(config.approx_src_root, "runtime", "llm", "include")))
config.substitutions.append(("%approx_lib", os.path.join(config.approx_obj_root, "lib")))
config.substitutions.append(("%src_root", config.approx_src_root))
config.environment.pop("APPROX_LLM_CACHE", None)
# One thread per LLM: lit runs tests in parallel, and llama.cpp's OpenMP
# threads spinning against each other on an oversubscribed machine are slower
# by an order of magnitude.
config.environment["APPROX_LLM_THREADS"] = "1"
# Wall-clock budgets of tuning tests are multiplied by this (the sanitized
# build runs several times slower: scripts/test-sanitized.sh sets 8).
config.substitutions.append(
    ("%budget_scale", os.environ.get("APPROX_TEST_BUDGET_SCALE", "1")))
# Tests decide their own configuration.
config.environment.pop("APPROX_CONFIG", None)
config.environment.pop("APPROX_INPUT_SET", None)

# Distributed tuning (approx-tune --mpi) when built with MPI: Open MPI's
# launcher, allowed to run as root (CI) and more ranks than cores, ending
# the job when a rank dies (its default, whatever the environment says).
import shutil
if getattr(config, "approx_have_mpi", False) and shutil.which("mpirun"):
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", "env OMPI_MCA_orte_abort_on_non_zero_status=1 "
                    "mpirun --allow-run-as-root --oversubscribe"))

# A CPU with AMX tiles (int8 and bf16) runs the AMX builds of
# test/Execution/amx-tiles.mlir; elsewhere only their IR is checked.
try:
    with open("/proc/cpuinfo") as f:
        cpu_flags = next((l.split(":", 1)[1].split() for l in f
                          if l.startswith("flags")), [])
except OSError:
    cpu_flags = []
if {"amx_tile", "amx_int8", "amx_bf16"} <= set(cpu_flags):
    config.available_features.add("amx")
