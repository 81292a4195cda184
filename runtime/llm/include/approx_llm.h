/*===- approx_llm.h - the LLM engine of the compound systems (C ABI) ------===*
 *
 * Generation, token counting and embeddings through llama.cpp's C API, for
 * programs compiled with approx-cc (plain C callers, no MLIR dependency).
 * Link with -lapprox_llm.
 *
 *   allm_model *m = allm_load("gemma.gguf", NULL);        // NULL: defaults
 *   if (!m) { fprintf(stderr, "%s\n", allm_last_error()); exit(1); }
 *   char out[512];
 *   allm_gen_params g = allm_gen_defaults();              // greedy
 *   g.max_new_tokens = 16;
 *   const char *stop[] = {"\n"};
 *   g.stop = stop; g.n_stop = 1;
 *   if (allm_generate(m, "Q: ...\nA:", &g, out, sizeof out, NULL) < 0) ...
 *   allm_free(m);
 *
 * Determinism: greedy decoding (or sampling with a fixed seed) with the
 * same model, prompt, parameters and thread count gives the same text,
 * whatever the model generated before.
 *
 * Shared prompt prefixes: a caller whose prompts start with the same text
 * (instructions, few-shot examples) sets allm_gen_params.prefix_bytes to its
 * length. The prefix is then decoded on its own, and its KV cache is kept
 * (the last 8 distinct prefixes of each model) and reused by later calls
 * instead of being decoded again. The text depends only on the prompt, the
 * prefix length and the parameters: a reused prefix holds exactly the KV
 * values that decoding it would give. Without a prefix every generation
 * starts from an empty KV cache.
 *
 * Memoisation (for tuning only): with APPROX_LLM_CACHE=<dir> in the
 * environment, generate() first looks up the text and the time measured for
 * (model file, prompt, parameters) in <dir>, and stores both after a real
 * generation. A replayed call is charged the time it took when measured:
 * allm_time_adjustment() returns the seconds to add to the caller's wall
 * clock (replayed minus actually spent), so that a memoised run reports the
 * time a real run would have taken.
 *
 * Errors: functions return NULL or a negative value and allm_last_error()
 * (per thread) says why, naming the file or the limit. Nothing aborts.
 * Environment: APPROX_LLM_THREADS (default: all cores), APPROX_LLM_VERBOSE=1
 * (llama.cpp's own log on stderr).
 *===----------------------------------------------------------------------===*/
#ifndef APPROX_LLM_H
#define APPROX_LLM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct allm_model allm_model;

/* KV-cache element type. */
typedef enum { ALLM_KV_F16 = 0, ALLM_KV_Q8_0 = 1, ALLM_KV_F32 = 2 } allm_kv_type;

typedef struct {
  int n_ctx;     /* context size in tokens (default 2048) */
  int n_threads; /* 0: APPROX_LLM_THREADS, else every core */
  allm_kv_type kv_type;
  int embeddings; /* 1: load for allm_embed (mean pooling unless the model says otherwise) */
  int truncate;   /* embeddings: 1 = a text longer than n_ctx tokens keeps its first
                     n_ctx - 1 tokens and its last one (the end token), as
                     sentence-transformers truncates; 0 (default) = an error */
} allm_load_params;

typedef struct {
  int max_new_tokens;       /* default 32 */
  const char *const *stop;  /* generation ends before the first stop string */
  int n_stop;
  float temperature;        /* 0 (default): greedy; > 0: sampled with `seed` */
  uint32_t seed;
  const char *grammar;      /* optional GBNF grammar (root rule "root") */
  int add_bos;              /* 1 (default): the model's BOS token first */
  int prefix_bytes;         /* 0 (default): none; else the first prefix_bytes bytes of the
                               prompt are a prefix shared by many calls, whose KV cache
                               is kept and reused (at most the prompt's length) */
  allm_model *draft;        /* NULL (default): none; else greedy speculative decoding:
                               this smaller model of the same vocabulary proposes
                               draft_tokens tokens at a time and the model checks them
                               in one batch, keeping those it would have chosen itself:
                               the text is plain greedy decoding's. Greedy (temperature
                               0) and without a grammar only. */
  int draft_tokens;         /* tokens proposed per step with `draft` (default 4; 1..16) */
} allm_gen_params;

typedef struct {
  int prompt_tokens;
  int generated_tokens;
  double prompt_seconds;   /* prompt processing */
  double generate_seconds; /* token generation */
  int cached;              /* 1: replayed from APPROX_LLM_CACHE */
  double first_token_prob; /* the first generated token's probability: softmax of
                              the model's logits over all tokens, or with a
                              grammar (greedy) over the tokens it allows among
                              the 64 most likely (all it allows if none of
                              those); 0 if nothing was generated */
  int reused_tokens;       /* prompt tokens of a shared prefix whose KV cache was
                              reused, not decoded by this call (0: the whole prompt
                              was decoded) */
  int drafted_tokens;      /* speculative decoding: tokens the draft proposed */
  int accepted_tokens;     /*   and how many of them the model kept */
} allm_stats;

allm_load_params allm_load_defaults(void);
allm_gen_params allm_gen_defaults(void);

/* Loads a GGUF model; NULL on error (missing, unreadable, not GGUF,
 * truncated or otherwise rejected by llama.cpp). `params` may be NULL. */
allm_model *allm_load(const char *path, const allm_load_params *params);
void allm_free(allm_model *model);

/* Generates a continuation of `prompt` into `out` (NUL-terminated, at most
 * `out_size` bytes). Returns the number of bytes written, or -1 (prompt plus
 * max_new_tokens longer than the context, bad grammar, decode failure,
 * output buffer too small). `stats` may be NULL. */
int allm_generate(allm_model *model, const char *prompt,
                  const allm_gen_params *params, char *out, size_t out_size,
                  allm_stats *stats);

/* Tokens of `text` as the model sees it (with BOS when `add_bos`). */
int allm_count_tokens(allm_model *model, const char *text, int add_bos);

/* The token ids of `text` (with the model's special tokens, e.g. BERT's
 * [CLS] ... [SEP], when `add_special`) into `out`. A text of more than `cap`
 * tokens keeps its first cap - 1 and its last one, as sentence-transformers
 * truncates. Returns the text's full token count (more than `cap` when it
 * was truncated) or -1. */
int allm_tokenize(allm_model *model, const char *text, int add_special, int32_t *out, int cap);

/* Embedding dimension; mean-pooled, L2-normalised embedding of `text` into
 * `out` (allm_n_embd floats). The model must be loaded with embeddings=1.
 * Returns the dimension or -1. */
int allm_n_embd(const allm_model *model);
int allm_embed(allm_model *model, const char *text, float *out, int out_len);

/* Embeddings of `n` texts into `out` (n rows of allm_n_embd floats; `out_len`
 * floats in all), several texts to a batch: the same vectors as allm_embed
 * on each, faster. Returns n or -1 (naming the text that failed). */
int allm_embed_batch(allm_model *model, const char *const *texts, int n, float *out,
                     size_t out_len);

/* Writes a lower-precision copy of the GGUF model `in` to `out` with
 * llama_model_quantize (requantizing allowed); `type` is a llama.cpp file
 * type name: Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K_S, Q3_K_M, Q3_K_L,
 * Q4_K_S, Q4_K_M, Q5_K_S, Q5_K_M, Q6_K. `out` is written to a temporary
 * name and renamed on success. Returns 0 or -1. */
int allm_quantize(const char *in, const char *out, const char *type, int n_threads);

/* Totals over every generate() of this model since it was loaded. */
void allm_model_stats(const allm_model *model, allm_stats *total);

/* Seconds to add to the caller's wall clock for replayed generations. */
double allm_time_adjustment(void);

/* Why the last failing call of this thread failed. */
const char *allm_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* APPROX_LLM_H */
