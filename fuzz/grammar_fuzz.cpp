//===- grammar_fuzz.cpp - libFuzzer target: GBNF grammars ----------------===//
// Any text as a GBNF grammar of a generation with a real model (SmolLM2's
// vocabulary, $APPROX_FUZZ_MODEL): the engine's checks, then llama.cpp's
// parser and sampler. The generation succeeds, or fails with a message; no
// crash, no abort, no stack overflow.
#include "approx_llm.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

static allm_model *model;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *path = getenv("APPROX_FUZZ_MODEL");
  allm_load_params p = allm_load_defaults();
  p.n_ctx = 64;
  p.n_threads = 1;
  model = path ? allm_load(path, &p) : nullptr;
  if (!model) {
    fprintf(stderr, "grammar_fuzz: set APPROX_FUZZ_MODEL to a GGUF model (%s)\n",
            allm_last_error());
    exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string grammar(reinterpret_cast<const char *>(data), size);
  if (grammar.find('\0') != std::string::npos)
    return 0; // a C string ends there (approx-llm refuses such files)
  allm_gen_params g = allm_gen_defaults();
  g.max_new_tokens = 2;
  g.grammar = grammar.c_str();
  char out[256];
  if (allm_generate(model, "Yes or no:", &g, out, sizeof out, nullptr) < 0 &&
      !*allm_last_error())
    std::abort(); // a failure says why
  return 0;
}
