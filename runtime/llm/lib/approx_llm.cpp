//===- approx_llm.cpp - the LLM engine over llama.cpp's C API -------------===//
//
// See approx_llm.h. One llama_context per loaded model; each generation
// starts from an empty KV cache or from a shared prefix's (kept live, or
// restored from a saved copy), decodes the rest of the prompt in batches and
// samples greedily (or with a seeded distribution), optionally under a GBNF
// grammar.
//
//===----------------------------------------------------------------------===//
#include "approx_llm.h"
#include "approx_files.h"
#include "memo_cache.h"

#include "llama.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct allm_model {
  llama_model *model = nullptr;
  llama_context *ctx = nullptr;
  const llama_vocab *vocab = nullptr;
  std::string path;
  std::string identity; // path, size and modification time: the memo key's model part
  allm_load_params params;
  allm_stats total{};
  // Shared prefixes (allm_gen_params.prefix_bytes): the tokens whose KV cache
  // sequence 0 holds at positions [0, live.size()) (empty: nothing reusable),
  // and saved copies of the last kMaxSavedPrefixes prefixes' KV caches, most
  // recently used first.
  std::vector<llama_token> live;
  struct SavedPrefix {
    std::vector<llama_token> tokens;
    std::vector<uint8_t> state;
  };
  std::list<SavedPrefix> saved;
  // The identity of the last draft model found to share this model's
  // vocabulary (sameVocabulary compares every token: once per draft file).
  std::string draftChecked;
};

namespace {

thread_local std::string lastError;
std::mutex logMutex;
// llama.cpp's error log lines since the engine's current call began
// (llamaError), at most kMaxLlamaErrors of them.
std::vector<std::string> llamaErrors;
constexpr size_t kMaxLlamaErrors = 4;
double timeAdjustment = 0;
std::mutex adjustMutex;

int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fail(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  lastError = buf;
  return -1;
}

double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

void logCallback(ggml_log_level level, const char *text, void *) {
  static const bool verbose = [] {
    const char *v = getenv("APPROX_LLM_VERBOSE");
    return v && *v && strcmp(v, "0");
  }();
  if (verbose)
    fputs(text, stderr);
  if (level == GGML_LOG_LEVEL_ERROR) {
    std::string line = text;
    while (!line.empty() && (line.back() == '\n' || line.back() == ' '))
      line.pop_back();
    std::lock_guard<std::mutex> lock(logMutex);
    if (!line.empty() && llamaErrors.size() < kMaxLlamaErrors)
      llamaErrors.push_back(line);
  }
}

void initBackend() {
  static std::once_flag once;
  std::call_once(once, [] {
    llama_log_set(logCallback, nullptr);
    llama_backend_init();
  });
}

// Forgets llama.cpp's earlier error lines: called as an engine call begins.
void clearLlamaErrors() {
  std::lock_guard<std::mutex> lock(logMutex);
  llamaErrors.clear();
}

// What llama.cpp logged as errors since the call began: its first lines
// give the reason ("error loading model: ..."), the last one the outcome.
std::string llamaError() {
  std::lock_guard<std::mutex> lock(logMutex);
  std::string all;
  for (const std::string &e : llamaErrors)
    all += (all.empty() ? "" : "; ") + e;
  return all.empty() ? "no reason given (APPROX_LLM_VERBOSE=1 shows llama.cpp's log)" : all;
}

int cores() { return (int)std::max(1u, std::thread::hardware_concurrency()); }

// The most threads a model may use: beyond a few per core ggml only
// contends (10,000 hung, 100,000 crashed in thread creation).
int maxThreads() { return std::max(16, 4 * cores()); }

// The thread count asked for (0: APPROX_LLM_THREADS, else every core), or
// -1 after fail() when it is out of range.
int threadCount(int asked) {
  int n = asked;
  const char *from = "n_threads";
  if (n == 0) {
    n = cores();
    if (const char *t = getenv("APPROX_LLM_THREADS"); t && *t) {
      char *end;
      long v = strtol(t, &end, 10);
      n = *end || v < 1 || v > INT32_MAX ? -1 : (int)v;
      from = "APPROX_LLM_THREADS";
      if (n < 0)
        return fail("APPROX_LLM_THREADS='%s' is not a whole number >= 1", t);
    }
  }
  if (n < 1 || n > maxThreads())
    return fail("%s %d is out of range: 1 to %d (4 per core, at least 16)", from, n,
                maxThreads());
  return n;
}

// Sampling temperatures: 0 (greedy) or within these bounds; smaller ones
// overflow the logits (1e-38 gave garbage tokens).
constexpr float kMinTemperature = 1e-3f, kMaxTemperature = 100.f;
// Speculative decoding: tokens a draft proposes per step.
constexpr int kDefaultDraftTokens = 4, kMaxDraftTokens = 16;

// GBNF groups nested deeper than this are refused before llama.cpp parses
// them (its recursive parser overflowed the stack at 20,000 levels).
constexpr int kMaxGrammarNesting = 256;
// And grammars larger than this.
constexpr size_t kMaxGrammarBytes = 1 << 20;

// Checks what llama.cpp's grammar parser would not survive; true if fine.
bool checkGrammar(const char *g) {
  size_t len = strlen(g);
  if (len > kMaxGrammarBytes)
    return fail("grammar of %zu bytes exceeds the limit of %zu", len, kMaxGrammarBytes), false;
  int depth = 0, line = 1;
  for (size_t i = 0; i < len; i++) {
    char c = g[i];
    if (c == '\n')
      line++;
    else if (c == '#') { // a comment, to the end of the line
      while (i + 1 < len && g[i + 1] != '\n')
        i++;
    } else if (c == '"' || c == '[') { // a literal or a character class
      char close = c == '"' ? '"' : ']';
      for (i++; i < len && g[i] != close; i++)
        if (g[i] == '\\')
          i++;
        else if (g[i] == '\n')
          line++;
    } else if (c == '(') {
      if (++depth > kMaxGrammarNesting)
        return fail("grammar line %d: groups nested deeper than %d levels", line,
                    kMaxGrammarNesting),
               false;
    } else if (c == ')')
      depth = std::max(0, depth - 1);
  }
  return true;
}

// Checks what llama.cpp would report vaguely or not at all: a missing or
// unreadable file, or one that is not GGUF.
bool checkModelFile(const char *path, std::string &identity) {
  struct stat st;
  if (stat(path, &st) != 0)
    return fail("cannot load model '%s': %s", path, strerror(errno)), false;
  if (!S_ISREG(st.st_mode))
    return fail("cannot load model '%s': not a regular file", path), false;
  FILE *f = fopen(path, "rb");
  if (!f)
    return fail("cannot load model '%s': %s", path, strerror(errno)), false;
  char magic[4] = {0};
  size_t n = fread(magic, 1, 4, f);
  fclose(f);
  if (n != 4 || memcmp(magic, "GGUF", 4) != 0)
    return fail("cannot load model '%s': not a GGUF file", path), false;
  char *real = realpath(path, nullptr);
  identity = std::string(real ? real : path) + "|" + std::to_string(st.st_size) + "|" +
             std::to_string((long long)st.st_mtime);
  free(real);
  return true;
}

ggml_type kvType(allm_kv_type t) {
  switch (t) {
  case ALLM_KV_Q8_0:
    return GGML_TYPE_Q8_0;
  case ALLM_KV_F32:
    return GGML_TYPE_F32;
  case ALLM_KV_F16:
    break;
  }
  return GGML_TYPE_F16;
}

bool tokenize(const allm_model *m, const char *text, bool addBos, std::vector<llama_token> &out) {
  int len = (int)strlen(text);
  out.resize(len + 8);
  int n = llama_tokenize(m->vocab, text, len, out.data(), (int)out.size(), addBos, false);
  if (n < 0) {
    out.resize(-n);
    n = llama_tokenize(m->vocab, text, len, out.data(), (int)out.size(), addBos, false);
  }
  if (n < 0)
    return fail("cannot tokenize the text (%d bytes)", len), false;
  out.resize(n);
  return true;
}

// Embedding batches: at most this many tokens and texts per llama_encode.
constexpr int kEmbedBatchTokens = 512;
constexpr int kEmbedBatchTexts = 64;
// Saved copies of shared prefixes' KV caches per model.
constexpr size_t kMaxSavedPrefixes = 8;

// The context asked for at load time (llama.cpp may round it up).
int contextSize(const allm_model *m) {
  return std::min((int)llama_n_ctx(m->ctx), m->params.n_ctx);
}

std::string piece(const allm_model *m, llama_token t) {
  char buf[256];
  int n = llama_token_to_piece(m->vocab, t, buf, sizeof buf, 0, false);
  return n > 0 ? std::string(buf, n) : std::string();
}

// Decodes `tokens` after what the KV cache holds, in batches of the context's size.
bool decodeAll(allm_model *m, std::vector<llama_token> &tokens) {
  int batch = (int)llama_n_batch(m->ctx);
  for (size_t i = 0; i < tokens.size(); i += batch) {
    int n = std::min<int>(batch, (int)(tokens.size() - i));
    int rc = llama_decode(m->ctx, llama_batch_get_one(tokens.data() + i, n));
    if (rc != 0)
      return fail("llama_decode failed (%d): %s", rc, llamaError().c_str()), false;
  }
  return true;
}

// How many leading tokens of the prompt's `tokens` belong to the shared
// prefix of `p` (0: none): those the prompt's tokens and the prefix's own
// tokens have in common (a tokenizer may split differently at the boundary:
// GPT-2-style ones give a prefix's trailing "\n\n" to the word after it),
// leaving at least one token of the prompt to decode.
bool prefixTokens(const allm_model *m, const char *prompt, const allm_gen_params &p,
                  const std::vector<llama_token> &tokens, size_t &n) {
  n = 0;
  if (p.prefix_bytes == 0)
    return true;
  std::vector<llama_token> prefix;
  if (!tokenize(m, std::string(prompt, p.prefix_bytes).c_str(), p.add_bos, prefix))
    return false;
  size_t limit = std::min(prefix.size(), tokens.size() - 1);
  while (n < limit && prefix[n] == tokens[n])
    n++;
  return true;
}

// Puts the KV cache of tokens[0, n) in place for a generation (n: the shared
// prefix's tokens, 0 for none) in cells 0 .. n-1 of sequence 0, as decoding
// them from an empty cache does; `reused` is how many of them it did not
// decode. The prefix is kept live after the call (the next call with it
// removes what followed it) and a copy of its KV cache is saved.
bool startFrom(allm_model *m, const std::vector<llama_token> &tokens, size_t n, size_t &reused) {
  llama_memory_t mem = llama_get_memory(m->ctx);
  std::vector<llama_token> prefix(tokens.begin(), tokens.begin() + n);
  reused = 0;
  if (n > 0 && m->live == prefix && llama_memory_seq_rm(mem, 0, (llama_pos)n, -1)) {
    reused = n;
    return true;
  }
  llama_memory_clear(mem, true);
  m->live.clear();
  if (n == 0)
    return true;
  auto at = std::find_if(m->saved.begin(), m->saved.end(),
                         [&](const allm_model::SavedPrefix &sp) { return sp.tokens == prefix; });
  if (at != m->saved.end()) {
    m->saved.splice(m->saved.begin(), m->saved, at); // most recently used first
    const std::vector<uint8_t> &state = m->saved.front().state;
    if (llama_state_seq_set_data(m->ctx, state.data(), state.size(), 0) == state.size()) {
      m->live = prefix;
      reused = n;
      return true;
    }
    m->saved.pop_front(); // not restorable: decode it again
    llama_memory_clear(mem, true);
  }
  if (!decodeAll(m, prefix))
    return false;
  allm_model::SavedPrefix copy{prefix, std::vector<uint8_t>(llama_state_seq_get_size(m->ctx, 0))};
  if (llama_state_seq_get_data(m->ctx, copy.state.data(), copy.state.size(), 0) ==
      copy.state.size()) {
    m->saved.push_front(std::move(copy));
    if (m->saved.size() > kMaxSavedPrefixes)
      m->saved.pop_back();
  }
  m->live = prefix;
  return true;
}

std::string memoKey(const allm_model *m, const char *prompt, const allm_gen_params &p) {
  std::string key = "allm-v2|" + m->identity + "|ctx=" + std::to_string(m->params.n_ctx) +
                    "|kv=" + std::to_string(m->params.kv_type) +
                    "|max=" + std::to_string(p.max_new_tokens) +
                    "|temp=" + std::to_string(p.temperature) +
                    "|seed=" + std::to_string(p.seed) + "|bos=" + std::to_string(p.add_bos) +
                    "|prefix=" + std::to_string(p.prefix_bytes) +
                    (p.draft ? "|draft=" + p.draft->identity + "," + std::to_string(p.draft_tokens)
                             : std::string()) +
                    "|grammar=" + (p.grammar ? p.grammar : "") + "|stop=";
  for (int i = 0; i < p.n_stop; i++)
    key += std::to_string(strlen(p.stop[i])) + ":" + p.stop[i];
  return key + "|prompt=" + prompt;
}

void addStats(allm_stats &total, const allm_stats &s) {
  total.prompt_tokens += s.prompt_tokens;
  total.generated_tokens += s.generated_tokens;
  total.prompt_seconds += s.prompt_seconds;
  total.generate_seconds += s.generate_seconds;
  total.cached += s.cached;
  total.reused_tokens += s.reused_tokens;
}

int copyOut(const std::string &text, char *out, size_t outSize) {
  if (text.size() + 1 > outSize)
    return fail("generated text (%zu bytes) does not fit the output buffer (%zu bytes)",
                text.size(), outSize);
  memcpy(out, text.c_str(), text.size() + 1);
  return (int)text.size();
}

// Softmax probability of candidate `at` among the finite logits of `arr`.
double probabilityOf(const llama_token_data_array &arr, size_t at) {
  double top = -INFINITY, sum = 0;
  for (size_t j = 0; j < arr.size; j++)
    if (std::isfinite(arr.data[j].logit))
      top = std::max(top, (double)arr.data[j].logit);
  for (size_t j = 0; j < arr.size; j++)
    if (std::isfinite(arr.data[j].logit))
      sum += std::exp(arr.data[j].logit - top);
  return sum > 0 ? std::exp(arr.data[at].logit - top) / sum : 0;
}

// Every token with its logit for the next position, in token order.
std::vector<llama_token_data> candidates(allm_model *m) {
  const float *logits = llama_get_logits_ith(m->ctx, -1);
  std::vector<llama_token_data> cand(llama_vocab_n_tokens(m->vocab));
  for (size_t j = 0; j < cand.size(); j++)
    cand[j] = {(llama_token)j, logits[j], 0.f};
  return cand;
}

// Index of the first largest finite logit of `arr`; -1 if none is finite.
long argmax(const llama_token_data_array &arr) {
  long best = -1;
  for (size_t j = 0; j < arr.size; j++)
    if (std::isfinite(arr.data[j].logit) && (best < 0 || arr.data[j].logit > arr.data[best].logit))
      best = (long)j;
  return best;
}

// A grammar is applied to the most likely tokens first: applying it to a
// whole vocabulary (Gemma's has 262,144 tokens) takes seconds per token.
constexpr size_t kGrammarShortlist = 64;

// The greedy next token: the most likely one `grammar` (may be null) allows.
// With `prob`, its probability: softmax over the allowed tokens among the
// kGrammarShortlist most likely and the end-of-generation tokens (among all
// allowed tokens when none of those is; among all tokens without a grammar).
// Applying a grammar does not advance it. Returns -1 when the grammar allows no token.
llama_token greedyToken(allm_model *m, llama_sampler *grammar, double *prob) {
  if (!grammar && !prob) { // most tokens: the first largest logit, nothing to copy
    const float *logits = llama_get_logits_ith(m->ctx, -1);
    int n = llama_vocab_n_tokens(m->vocab);
    return (llama_token)(std::max_element(logits, logits + n) - logits);
  }
  std::vector<llama_token_data> cand = candidates(m);
  llama_token_data_array arr{cand.data(), cand.size(), -1, false};
  if (grammar) {
    // The shortlist: the most likely tokens, and the end-of-generation
    // tokens (all a complete grammar allows).
    size_t k = std::min(kGrammarShortlist, cand.size());
    std::partial_sort(cand.begin(), cand.begin() + k, cand.end(),
                      [](const llama_token_data &a, const llama_token_data &b) {
                        return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
                      });
    for (llama_token e : {llama_vocab_eos(m->vocab), llama_vocab_eot(m->vocab)}) {
      auto at = std::find_if(cand.begin() + k, cand.end(),
                             [e](const llama_token_data &c) { return c.id == e; });
      if (e >= 0 && at != cand.end())
        std::swap(*at, cand[k++]);
    }
    llama_token_data_array shortlist{cand.data(), k, -1, false};
    llama_sampler_apply(grammar, &shortlist);
    if (argmax(shortlist) >= 0)
      arr = shortlist;
    else
      llama_sampler_apply(grammar, &arr); // the shortlist's logits are -inf by now
  }
  long best = argmax(arr);
  if (best < 0)
    return -1;
  if (prob)
    *prob = probabilityOf(arr, (size_t)best);
  return arr.data[best].id;
}

// Decodes `tokens` at positions pos, pos+1, ... of sequence 0 with the logits
// of every one kept (llama_get_logits_ith(ctx, i) for tokens[i]).
bool decodeWithLogits(allm_model *m, const std::vector<llama_token> &tokens, llama_pos pos) {
  llama_batch b = llama_batch_init((int32_t)tokens.size(), 0, 1);
  for (size_t i = 0; i < tokens.size(); i++) {
    b.token[i] = tokens[i];
    b.pos[i] = pos + (llama_pos)i;
    b.n_seq_id[i] = 1;
    b.seq_id[i][0] = 0;
    b.logits[i] = 1;
  }
  b.n_tokens = (int32_t)tokens.size();
  int rc = llama_decode(m->ctx, b);
  llama_batch_free(b);
  if (rc != 0)
    return fail("llama_decode failed (%d): %s", rc, llamaError().c_str()), false;
  return true;
}

// The most likely next token after the i-th token of the last batch (-1: its last).
llama_token argmaxAt(allm_model *m, int i) {
  const float *logits = llama_get_logits_ith(m->ctx, i);
  int n = llama_vocab_n_tokens(m->vocab);
  return (llama_token)(std::max_element(logits, logits + n) - logits);
}

// Whether `draft` can draft for `m`: the same vocabulary (size, special
// tokens and every token's text), so that a token id means the same to both.
bool sameVocabulary(const allm_model *m, const allm_model *draft) {
  int n = llama_vocab_n_tokens(m->vocab);
  if (llama_vocab_n_tokens(draft->vocab) != n ||
      llama_vocab_bos(m->vocab) != llama_vocab_bos(draft->vocab) ||
      llama_vocab_eos(m->vocab) != llama_vocab_eos(draft->vocab))
    return false;
  for (llama_token t = 0; t < n; t++)
    if (strcmp(llama_vocab_get_text(m->vocab, t), llama_vocab_get_text(draft->vocab, t)) != 0)
      return false;
  return true;
}

// Appends token t to a generation: false when it ends it (an end token, a
// stop string, max_new_tokens reached).
bool emit(allm_model *m, const allm_gen_params &p, llama_token t, std::string &text,
          allm_stats &s) {
  if (llama_vocab_is_eog(m->vocab, t))
    return false;
  s.generated_tokens++;
  text += piece(m, t);
  size_t cut = std::string::npos;
  for (int k = 0; k < p.n_stop; k++)
    if (p.stop[k] && *p.stop[k])
      cut = std::min(cut, text.find(p.stop[k]));
  if (cut != std::string::npos) {
    text.resize(cut);
    return false;
  }
  return s.generated_tokens < p.max_new_tokens;
}

// Greedy speculative decoding after a prompt of `promptTokens` tokens that
// both `m` (whose logits for the next token are current) and the draft have
// read: each step the draft proposes up to p.draft_tokens tokens after the
// last verified one, `m` decodes them in one batch, and the tokens `m` would
// itself have chosen are kept up to the first difference, whose place `m`'s
// own token takes. The text is plain greedy decoding's.
bool speculate(allm_model *m, const allm_gen_params &p, size_t promptTokens, std::string &text,
               allm_stats &s) {
  allm_model *d = p.draft;
  llama_memory_t memM = llama_get_memory(m->ctx), memD = llama_get_memory(d->ctx);
  llama_pos pos = (llama_pos)promptTokens; // where the verified token `cur` goes
  double prob = 0;
  llama_token cur = greedyToken(m, nullptr, &prob);
  s.first_token_prob = prob;
  std::vector<llama_token> pending{cur}; // verified tokens the draft has not read
  while (emit(m, p, cur, text, s)) {
    // The draft reads what it has not read yet and proposes k tokens.
    int k = std::min(p.draft_tokens, p.max_new_tokens - s.generated_tokens);
    std::vector<llama_token> batch{cur};
    for (int j = 0; j < k; j++) {
      if (!decodeAll(d, pending))
        return false;
      batch.push_back(argmaxAt(d, -1));
      pending.assign(1, batch.back());
    }
    // The draft's cache now ends with batch[k - 1]; batch[k] is pending.
    if (!decodeWithLogits(m, batch, pos))
      return false;
    s.drafted_tokens += k;
    int accepted = 0;
    llama_token next = argmaxAt(m, 0);
    while (accepted < k && next == batch[accepted + 1] && emit(m, p, next, text, s)) {
      accepted++;
      next = argmaxAt(m, accepted);
    }
    if (accepted < k && next == batch[accepted + 1]) // a kept draft token ended the text
      return s.accepted_tokens += accepted + 1, true;
    s.accepted_tokens += accepted;
    // Keep cur and the accepted tokens; `next` is the new cur.
    pos += accepted + 1;
    if (!llama_memory_seq_rm(memM, 0, pos, -1))
      return fail("cannot trim the KV cache after a draft"), false;
    if (accepted < k) {
      if (!llama_memory_seq_rm(memD, 0, pos, -1))
        return fail("cannot trim the draft's KV cache"), false;
      pending.assign(1, next);
    } else {
      pending = {batch[k], next};
    }
    cur = next;
  }
  return true;
}

// The real generation; fills `text` and `s`.
bool generate(allm_model *m, const char *prompt, const allm_gen_params &p, std::string &text,
              allm_stats &s) {
  std::vector<llama_token> tokens;
  if (!tokenize(m, prompt, p.add_bos, tokens))
    return false;
  int nCtx = contextSize(m);
  if ((int)tokens.size() + p.max_new_tokens > nCtx)
    return fail("prompt of %zu tokens plus %d new tokens exceeds the context of %d tokens",
                tokens.size(), p.max_new_tokens, nCtx),
           false;
  if (tokens.empty())
    return fail("empty prompt"), false;
  if (p.draft && (int)tokens.size() + p.max_new_tokens > contextSize(p.draft))
    return fail("prompt of %zu tokens plus %d new tokens exceeds the draft model's context of "
                "%d tokens",
                tokens.size(), p.max_new_tokens, contextSize(p.draft)),
           false;
  llama_sampler *grammar = nullptr;
  if (p.grammar && *p.grammar) {
    grammar = llama_sampler_init_grammar(m->vocab, p.grammar, "root");
    if (!grammar)
      return fail("invalid grammar: %s", llamaError().c_str()), false;
  }
  // Sampling (temperature > 0) goes through llama.cpp's sampler chain, which
  // then owns the grammar; greedy decoding picks tokens here (greedyToken).
  llama_sampler *chain = nullptr;
  if (p.temperature > 0) {
    chain = llama_sampler_chain_init(llama_sampler_chain_default_params());
    if (grammar)
      llama_sampler_chain_add(chain, grammar);
    llama_sampler_chain_add(chain, llama_sampler_init_temp(p.temperature));
    llama_sampler_chain_add(chain, llama_sampler_init_dist(p.seed));
  }
  size_t n = 0;
  if (!prefixTokens(m, prompt, p, tokens, n))
    return false;
  double t0 = now();
  size_t reused = 0;
  bool ok = startFrom(m, tokens, n, reused);
  std::vector<llama_token> rest(tokens.begin() + n, tokens.end());
  ok = ok && decodeAll(m, rest);
  if (ok && p.draft) { // the draft reads the prompt too (its own shared prefix kept)
    size_t draftReused = 0;
    ok = startFrom(p.draft, tokens, n, draftReused) && decodeAll(p.draft, rest);
  }
  double t1 = now();
  s.prompt_tokens = (int)tokens.size();
  s.reused_tokens = (int)reused;
  s.prompt_seconds = t1 - t0;
  text.clear();
  if (ok && p.draft)
    ok = speculate(m, p, tokens.size(), text, s);
  for (int i = 0; ok && !p.draft && i < p.max_new_tokens; i++) {
    double prob = 0;
    llama_token t;
    if (chain) {
      t = llama_sampler_sample(chain, m->ctx, -1);
      if (i == 0) { // among all tokens
        std::vector<llama_token_data> all = candidates(m);
        prob = probabilityOf({all.data(), all.size(), -1, false}, (size_t)t);
      }
    } else {
      t = greedyToken(m, grammar, i == 0 ? &prob : nullptr);
      if (t < 0) {
        ok = fail("the grammar allows no token after '%s'", text.c_str()) == 0;
        break;
      }
      if (grammar)
        llama_sampler_accept(grammar, t);
    }
    if (i == 0)
      s.first_token_prob = prob;
    if (!emit(m, p, t, text, s))
      break;
    int rc = llama_decode(m->ctx, llama_batch_get_one(&t, 1));
    if (rc != 0)
      ok = fail("llama_decode failed (%d): %s", rc, llamaError().c_str()) == 0;
  }
  s.generate_seconds = now() - t1;
  if (chain)
    llama_sampler_free(chain); // and the grammar it owns
  else if (grammar)
    llama_sampler_free(grammar);
  return ok;
}

// The entry points that reach llama.cpp or the memo cache: an exception
// (out of memory, a library's own throw) is an error return, never an
// abort through the C ABI.
template <class F> auto guarded(F f, decltype(f()) onError) {
  try {
    return f();
  } catch (const std::exception &e) {
    fail("internal error: %s", e.what());
  } catch (...) {
    fail("internal error: unknown exception");
  }
  return onError;
}

} // namespace

extern "C" {

allm_load_params allm_load_defaults(void) {
  allm_load_params p;
  p.n_ctx = 2048;
  p.n_threads = 0;
  p.kv_type = ALLM_KV_F16;
  p.embeddings = 0;
  p.truncate = 0;
  return p;
}

allm_gen_params allm_gen_defaults(void) {
  allm_gen_params p;
  p.max_new_tokens = 32;
  p.stop = nullptr;
  p.n_stop = 0;
  p.temperature = 0;
  p.seed = 0;
  p.grammar = nullptr;
  p.add_bos = 1;
  p.prefix_bytes = 0;
  p.draft = nullptr;
  p.draft_tokens = kDefaultDraftTokens;
  return p;
}

static allm_model *loadUnguarded(const char *path, const allm_load_params *params) {
  allm_load_params p = params ? *params : allm_load_defaults();
  if (!path)
    return fail("cannot load model: no path given"), nullptr;
  if (p.n_ctx < 16)
    return fail("cannot load model '%s': context size %d is too small", path, p.n_ctx), nullptr;
  int threads = threadCount(p.n_threads);
  if (threads < 0)
    return nullptr;
  std::string identity;
  if (!checkModelFile(path, identity))
    return nullptr;
  initBackend();
  clearLlamaErrors();
  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = 0;
  llama_model *model = llama_model_load_from_file(path, mp);
  if (!model)
    return fail("cannot load model '%s': %s", path, llamaError().c_str()), nullptr;
  llama_context_params cp = llama_context_default_params();
  if (p.embeddings && llama_model_n_ctx_train(model) > 0)
    // An encoder has a position embedding per trained position: a longer
    // context would index past it (ggml aborted in get_rows).
    p.n_ctx = std::min(p.n_ctx, (int)llama_model_n_ctx_train(model));
  cp.n_ctx = p.n_ctx;
  cp.n_batch = std::min<uint32_t>(p.n_ctx, 2048);
  cp.n_ubatch = std::min<uint32_t>(cp.n_batch, 512);
  cp.n_threads = cp.n_threads_batch = threads;
  cp.type_k = cp.type_v = kvType(p.kv_type);
  cp.no_perf = true;
  // A full-size sliding-window cache (Gemma 3): a shared prefix's KV cache
  // stays in it for the whole generation, whatever the window.
  cp.swa_full = true;
  if (p.embeddings) {
    // Several texts to a batch (allm_embed_batch), one sequence each; an
    // encoder needs the whole batch in one micro-batch.
    cp.embeddings = true;
    cp.pooling_type = LLAMA_POOLING_TYPE_MEAN;
    cp.n_ctx = cp.n_batch = cp.n_ubatch = std::max<uint32_t>(p.n_ctx, kEmbedBatchTokens);
    cp.n_seq_max = kEmbedBatchTexts;
    cp.kv_unified = true;
  }
  llama_context *ctx = llama_init_from_model(model, cp);
  if (!ctx) {
    llama_model_free(model);
    return fail("cannot create a context for '%s': %s", path, llamaError().c_str()), nullptr;
  }
  if (!p.embeddings && !llama_get_causal_attn(ctx)) {
    llama_free(ctx);
    llama_model_free(model);
    return fail("cannot load model '%s' for generation: it is an encoder (non-causal) model; "
                "load it for embeddings",
                path),
           nullptr;
  }
  auto *m = new allm_model;
  m->model = model;
  m->ctx = ctx;
  m->vocab = llama_model_get_vocab(model);
  m->path = path;
  m->identity = identity;
  m->params = p;
  m->params.n_threads = threads;
  return m;
}

void allm_free(allm_model *m) {
  if (!m)
    return;
  llama_free(m->ctx);
  llama_model_free(m->model);
  delete m;
}

static int generateUnguarded(allm_model *m, const char *prompt, const allm_gen_params *params,
                             char *out, size_t outSize, allm_stats *stats) {
  if (!m || !prompt || !out)
    return fail("allm_generate: null model, prompt or output buffer");
  if (m->params.embeddings)
    return fail("model '%s' was loaded for embeddings, not generation", m->path.c_str());
  allm_gen_params p = params ? *params : allm_gen_defaults();
  if (p.max_new_tokens < 1)
    return fail("max_new_tokens must be at least 1 (got %d)", p.max_new_tokens);
  if (!(p.temperature == 0 ||
        (p.temperature >= kMinTemperature && p.temperature <= kMaxTemperature)))
    return fail("temperature %g is out of range: 0 (greedy) or %g to %g", p.temperature,
                kMinTemperature, kMaxTemperature);
  if (p.n_stop < 0 || (p.n_stop > 0 && !p.stop))
    return fail("n_stop %d without stop strings", p.n_stop);
  if (p.grammar && *p.grammar && !checkGrammar(p.grammar))
    return -1;
  if (p.draft) {
    if (p.draft == m || p.draft->params.embeddings)
      return fail("a draft model must be another model loaded for generation");
    if (p.temperature != 0 || (p.grammar && *p.grammar))
      return fail("speculative decoding (a draft model) is greedy and without a grammar: "
                  "temperature must be 0 and grammar unset");
    if (p.draft_tokens < 1 || p.draft_tokens > kMaxDraftTokens)
      return fail("draft_tokens must be 1 to %d (got %d)", kMaxDraftTokens, p.draft_tokens);
    if (m->draftChecked != p.draft->identity && !sameVocabulary(m, p.draft))
      return fail("draft model '%s' does not share the vocabulary of '%s' (token ids would "
                  "mean different text)",
                  p.draft->path.c_str(), m->path.c_str());
    m->draftChecked = p.draft->identity;
  }
  clearLlamaErrors();
  if (p.prefix_bytes < 0 || (size_t)p.prefix_bytes > strlen(prompt))
    return fail("prefix_bytes %d is not within the prompt's %zu bytes", p.prefix_bytes,
                strlen(prompt));
  approx::llm::MemoEntry e{};
  allm_stats &s = e.stats;
  const char *cacheDir = getenv("APPROX_LLM_CACHE");
  std::string key = cacheDir && *cacheDir ? memoKey(m, prompt, p) : "";
  double start = now();
  if (!key.empty() && approx::llm::memoLookup(cacheDir, key, e)) {
    s.cached = 1;
    std::lock_guard<std::mutex> lock(adjustMutex);
    timeAdjustment += s.prompt_seconds + s.generate_seconds - (now() - start);
  } else {
    e = approx::llm::MemoEntry{}; // a failed lookup may have filled part of it
    if (!generate(m, prompt, p, e.text, s))
      return -1;
    if (!key.empty())
      approx::llm::memoStore(cacheDir, key, e);
  }
  addStats(m->total, s);
  if (stats)
    *stats = s;
  return copyOut(e.text, out, outSize);
}

int allm_count_tokens(allm_model *m, const char *text, int addBos) {
  if (!m || !text)
    return fail("allm_count_tokens: null model or text");
  std::vector<llama_token> tokens;
  return tokenize(m, text, addBos, tokens) ? (int)tokens.size() : -1;
}

int allm_tokenize(allm_model *m, const char *text, int addSpecial, int32_t *out, int cap) {
  if (!m || !text || (!out && cap > 0) || cap < 0)
    return fail("allm_tokenize: null model, text or output");
  std::vector<llama_token> tokens;
  if (!tokenize(m, text, addSpecial, tokens))
    return -1;
  int n = (int)tokens.size();
  if (n > cap && cap > 0) {
    std::copy(tokens.begin(), tokens.begin() + cap - 1, out);
    out[cap - 1] = tokens.back();
  } else if (n <= cap) {
    std::copy(tokens.begin(), tokens.end(), out);
  }
  return n;
}

int allm_n_embd(const allm_model *m) { return m ? llama_model_n_embd(m->model) : -1; }

int allm_embed(allm_model *m, const char *text, float *out, int outLen) {
  if (!m || !text || !out)
    return fail("allm_embed: null model, text or output");
  if (!m->params.embeddings)
    return fail("model '%s' was not loaded for embeddings (embeddings = 1)", m->path.c_str());
  int dim = llama_model_n_embd(m->model);
  if (outLen < dim)
    return fail("embedding output holds %d floats, the model gives %d", outLen, dim);
  return allm_embed_batch(m, &text, 1, out, (size_t)outLen) < 0 ? -1 : dim;
}

static int embedBatchUnguarded(allm_model *m, const char *const *texts, int n, float *out,
                               size_t outLen) {
  if (!m || (!texts && n > 0) || (!out && n > 0) || n < 0)
    return fail("allm_embed_batch: null model, texts or output");
  if (!m->params.embeddings)
    return fail("model '%s' was not loaded for embeddings (embeddings = 1)", m->path.c_str());
  int dim = llama_model_n_embd(m->model);
  if (outLen < (size_t)n * dim)
    return fail("embedding output holds %zu floats, %d texts of %d need %zu", outLen, n, dim,
                (size_t)n * dim);
  int nCtx = contextSize(m), capacity = (int)llama_n_batch(m->ctx);
  llama_batch batch = llama_batch_init(capacity, 0, 1);
  std::vector<std::vector<llama_token>> pending; // texts of the batch being filled
  int first = 0, filled = 0;                     // index of pending[0]; tokens in the batch
  // Runs the batch and copies its texts' pooled, L2-normalised embeddings.
  auto flush = [&]() -> bool {
    if (pending.empty())
      return true;
    batch.n_tokens = 0;
    for (size_t s = 0; s < pending.size(); s++)
      for (size_t i = 0; i < pending[s].size(); i++) {
        int k = batch.n_tokens++;
        batch.token[k] = pending[s][i];
        batch.pos[k] = (llama_pos)i;
        batch.n_seq_id[k] = 1;
        batch.seq_id[k][0] = (llama_seq_id)s;
        batch.logits[k] = 1;
      }
    if (llama_memory_t mem = llama_get_memory(m->ctx))
      llama_memory_clear(mem, true);
    int rc = llama_model_has_encoder(m->model) && !llama_model_has_decoder(m->model)
                 ? llama_encode(m->ctx, batch)
                 : llama_decode(m->ctx, batch);
    if (rc != 0)
      return fail("embedding failed (%d): %s", rc, llamaError().c_str()), false;
    for (size_t s = 0; s < pending.size(); s++) {
      const float *e = llama_get_embeddings_seq(m->ctx, (llama_seq_id)s);
      if (!e)
        return fail("the model gave no pooled embedding"), false;
      double norm = 0;
      for (int i = 0; i < dim; i++)
        norm += (double)e[i] * e[i];
      float scale = norm > 0 ? (float)(1 / std::sqrt(norm)) : 0.f;
      float *row = out + (size_t)(first + s) * dim;
      for (int i = 0; i < dim; i++)
        row[i] = e[i] * scale;
    }
    first += (int)pending.size();
    pending.clear();
    filled = 0;
    return true;
  };
  // The tokens of text t, truncated as the load parameters say; false on error.
  auto tokensOf = [&](int t, std::vector<llama_token> &tokens) -> bool {
    if (!texts[t])
      return fail("text %d is null", t), false;
    if (!tokenize(m, texts[t], true, tokens))
      return false;
    if (tokens.empty())
      return fail("text %d is empty", t), false;
    if ((int)tokens.size() > nCtx) {
      if (!m->params.truncate)
        return fail("text %d (%zu tokens) exceeds the context of %d tokens", t, tokens.size(),
                    nCtx),
               false;
      llama_token last = tokens.back();
      tokens.resize(nCtx - 1);
      tokens.push_back(last);
    }
    return true;
  };
  bool ok = true;
  for (int t = 0; t < n && ok; t++) {
    std::vector<llama_token> tokens;
    ok = tokensOf(t, tokens);
    if (ok && (filled + (int)tokens.size() > capacity || (int)pending.size() == kEmbedBatchTexts))
      ok = flush();
    filled += (int)tokens.size();
    pending.push_back(std::move(tokens));
  }
  ok = ok && flush();
  llama_batch_free(batch);
  return ok ? n : -1;
}

static int quantizeUnguarded(const char *in, const char *out, const char *type, int nThreads) {
  static const struct {
    const char *name;
    llama_ftype ftype;
  } types[] = {{"Q4_0", LLAMA_FTYPE_MOSTLY_Q4_0},     {"Q4_1", LLAMA_FTYPE_MOSTLY_Q4_1},
               {"Q5_0", LLAMA_FTYPE_MOSTLY_Q5_0},     {"Q5_1", LLAMA_FTYPE_MOSTLY_Q5_1},
               {"Q8_0", LLAMA_FTYPE_MOSTLY_Q8_0},     {"Q2_K", LLAMA_FTYPE_MOSTLY_Q2_K},
               {"Q3_K_S", LLAMA_FTYPE_MOSTLY_Q3_K_S}, {"Q3_K_M", LLAMA_FTYPE_MOSTLY_Q3_K_M},
               {"Q3_K_L", LLAMA_FTYPE_MOSTLY_Q3_K_L}, {"Q4_K_S", LLAMA_FTYPE_MOSTLY_Q4_K_S},
               {"Q4_K_M", LLAMA_FTYPE_MOSTLY_Q4_K_M}, {"Q5_K_S", LLAMA_FTYPE_MOSTLY_Q5_K_S},
               {"Q5_K_M", LLAMA_FTYPE_MOSTLY_Q5_K_M}, {"Q6_K", LLAMA_FTYPE_MOSTLY_Q6_K}};
  if (!in || !out || !type)
    return fail("allm_quantize: null argument");
  const llama_ftype *ftype = nullptr;
  for (const auto &t : types)
    if (!strcmp(t.name, type))
      ftype = &t.ftype;
  if (!ftype) {
    std::string known;
    for (const auto &t : types)
      known += (known.empty() ? "" : ", ") + std::string(t.name);
    return fail("unknown quantization type '%s' (%s)", type, known.c_str());
  }
  int threads = threadCount(nThreads);
  if (threads < 0)
    return -1;
  std::string identity;
  if (!checkModelFile(in, identity))
    return -1;
  if (approx_written_in_place(out))
    return fail("cannot write '%s': not a regular file (a model is written to a file)", out);
  // A fresh name per writer beside `out` (two quantizations into one
  // file shared one and left a corrupt model), never `in` itself.
  char why[APPROX_WHY_SIZE];
  approx_output staged;
  if (approx_output_stage(&staged, out, &in, 1, why) != 0)
    return fail("%s", why);
  initBackend();
  clearLlamaErrors();
  llama_model_quantize_params qp = llama_model_quantize_default_params();
  qp.nthread = threads;
  qp.ftype = *ftype;
  qp.allow_requantize = true;
  bool ok = false;
  try {
    ok = llama_model_quantize(in, staged.staged, &qp) == 0;
  } catch (const std::exception &e) {
    fail("cannot quantize '%s' to %s: %s", in, type, e.what());
    approx_output_discard(&staged);
    return -1;
  }
  if (!ok) {
    approx_output_discard(&staged);
    return fail("cannot quantize '%s' to %s: %s", in, type, llamaError().c_str());
  }
  if (approx_output_commit(&staged, why) != 0)
    return fail("%s", why);
  return 0;
}

void allm_model_stats(const allm_model *m, allm_stats *total) {
  if (m && total)
    *total = m->total;
}

double allm_time_adjustment(void) {
  std::lock_guard<std::mutex> lock(adjustMutex);
  return timeAdjustment;
}

const char *allm_last_error(void) { return lastError.c_str(); }

allm_model *allm_load(const char *path, const allm_load_params *params) {
  return guarded([&] { return loadUnguarded(path, params); }, (allm_model *)nullptr);
}

int allm_generate(allm_model *m, const char *prompt, const allm_gen_params *params, char *out,
                  size_t outSize, allm_stats *stats) {
  return guarded([&] { return generateUnguarded(m, prompt, params, out, outSize, stats); }, -1);
}

int allm_embed_batch(allm_model *m, const char *const *texts, int n, float *out,
                     size_t outLen) {
  return guarded([&] { return embedBatchUnguarded(m, texts, n, out, outLen); }, -1);
}

int allm_quantize(const char *in, const char *out, const char *type, int nThreads) {
  return guarded([&] { return quantizeUnguarded(in, out, type, nThreads); }, -1);
}

} // extern "C"
