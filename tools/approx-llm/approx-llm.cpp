//===- approx-llm.cpp - the LLM engine on the command line ----------------===//
//
//   approx-llm generate MODEL PROMPT [options]   continuation of PROMPT
//   approx-llm count MODEL TEXT                  tokens of TEXT (with BOS)
//   approx-llm embed MODEL TEXT                  dimension and the embedding
//   approx-llm embed-file MODEL IN OUT           embeddings of IN's lines (float32)
//   approx-llm quantize IN OUT TYPE              lower-precision copy
//   approx-llm bench MODEL [options]             prompt and generation tokens/s
//
// The work is done by the engine library (runtime/llm, approx_llm.h); this
// tool only parses the command line.
//
//===----------------------------------------------------------------------===//
#include "approx_files.h"
#include "approx_llm.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char *usageText =
    "usage: approx-llm generate MODEL PROMPT [--prompt-file] [--max-tokens N] [--stop S]...\n"
    "                  [--temperature T] [--seed S] [--grammar-file F] [--ctx N] [--threads N]\n"
    "                  [--kv f16|q8_0|f32] [--draft MODEL [--draft-tokens N]] [--stats]\n"
    "       approx-llm count MODEL TEXT\n"
    "       approx-llm embed MODEL TEXT [--ctx N] [--truncate] [--threads N]\n"
    "       approx-llm embed-file MODEL IN OUT [--ctx N] [--truncate] [--threads N]\n"
    "       approx-llm quantize IN OUT TYPE [--threads N]\n"
    "       approx-llm bench MODEL [--prompt-tokens N] [--gen-tokens N] [--repetitions R]\n"
    "                  [--ctx N] [--threads N] [--kv f16|q8_0|f32]\n"
    "                  [--draft MODEL [--draft-tokens N]]\n"
    "\n"
    "generate: greedy unless --temperature > 0 (then sampled with --seed); PROMPT is the\n"
    "  text, or a file with --prompt-file; --stats prints tokens and tokens/s on stderr.\n"
    "  Defaults: --max-tokens 32, --ctx 2048, every core (APPROX_LLM_THREADS), --kv f16.\n"
    "  --draft: greedy speculative decoding with MODEL (a smaller model of the same\n"
    "  vocabulary) proposing --draft-tokens tokens a step (default 4): the same text;\n"
    "  --stats adds the tokens drafted and accepted.\n"
    "embed: prints the dimension, then the mean-pooled, L2-normalised embedding.\n"
    "  --truncate: a text longer than --ctx tokens keeps its first ones and its end\n"
    "  token (as sentence-transformers does); without it, that is an error.\n"
    "embed-file: one text per line of IN; OUT gets one row of float32 (little-endian)\n"
    "  per line, written beside OUT and renamed into place when complete (a device\n"
    "  or pipe is written in place; OUT may not be IN or MODEL); progress on stderr.\n"
    "quantize: TYPE is a llama.cpp file type (Q4_0, Q8_0, Q2_K, Q3_K_M, Q4_K_M, ...).\n"
    "bench: median prompt-processing and generation tokens/s over --repetitions runs\n"
    "  (defaults 256 prompt tokens, 64 generated tokens, 3 repetitions).\n";

[[noreturn]] void usage(const std::string &msg = "") {
  if (!msg.empty())
    fprintf(stderr, "approx-llm: error: %s\n", msg.c_str());
  fputs(usageText, stderr);
  exit(2);
}

[[noreturn]] void die(const std::string &msg) {
  fprintf(stderr, "approx-llm: error: %s\n", msg.c_str());
  exit(1);
}

struct Options {
  std::vector<std::string> positional;
  allm_load_params load = allm_load_defaults();
  allm_gen_params gen = allm_gen_defaults();
  std::vector<std::string> stops;
  std::string grammar, draft;
  bool promptFile = false, stats = false;
  int promptTokens = 256, genTokens = 64, repetitions = 3;
};

int number(const std::string &flag, const char *v, int lo) {
  char *end;
  long n = strtol(v, &end, 10);
  if (*v == 0 || *end || n < lo || n > 1 << 24)
    usage(flag + " takes a whole number >= " + std::to_string(lo) + " (got '" + v + "')");
  return (int)n;
}

// Inputs are read with a limit (/dev/zero once read forever). What each
// may hold: a prompt, a grammar, a file of texts to embed.
constexpr size_t kMaxPromptBytes = 16 << 20, kMaxGrammarBytes = 1 << 20,
                 kMaxTextsBytes = (size_t)1 << 30;

// The text of `path` for `what` (a prompt, a grammar): at most `limit`
// bytes, no NUL byte (C strings would silently end there), not empty.
std::string readText(const std::string &path, const char *what, size_t limit) {
  char why[APPROX_WHY_SIZE];
  size_t len = 0;
  char *buf = approx_read_file(path.c_str(), limit, &len, why);
  if (!buf)
    die(why);
  std::string text(buf, len);
  free(buf);
  if (long at = approx_find_nul(text.data(), text.size()); at >= 0)
    die(path + ":" + std::to_string(approx_line_of(text.data(), (size_t)at)) + ": " + what +
        " holds a NUL byte (at byte " + std::to_string(at) + ")");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    die(path + ": empty " + what);
  return text;
}

float temperature(const char *v) {
  char *end;
  float t = strtof(v, &end);
  if (*v == 0 || *end || !std::isfinite(t) || t < 0)
    usage(std::string("--temperature takes 0 (greedy) or a positive number (got '") + v + "')");
  return t;
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--max-tokens")
      o.gen.max_new_tokens = number(a, value(), 1);
    else if (a == "--stop")
      o.stops.push_back(value());
    else if (a == "--temperature")
      o.gen.temperature = temperature(value());
    else if (a == "--seed")
      o.gen.seed = (uint32_t)number(a, value(), 0);
    else if (a == "--grammar-file")
      o.grammar = readText(value(), "grammar", kMaxGrammarBytes);
    else if (a == "--ctx")
      o.load.n_ctx = number(a, value(), 16);
    else if (a == "--threads")
      o.load.n_threads = number(a, value(), 1);
    else if (a == "--kv") {
      std::string k = value();
      o.load.kv_type = k == "f16"    ? ALLM_KV_F16
                       : k == "q8_0" ? ALLM_KV_Q8_0
                       : k == "f32"  ? ALLM_KV_F32
                                     : (usage("--kv takes f16, q8_0 or f32"), ALLM_KV_F16);
    } else if (a == "--draft")
      o.draft = value();
    else if (a == "--draft-tokens")
      o.gen.draft_tokens = number(a, value(), 1);
    else if (a == "--prompt-file")
      o.promptFile = true;
    else if (a == "--truncate")
      o.load.truncate = 1;
    else if (a == "--stats")
      o.stats = true;
    else if (a == "--prompt-tokens")
      o.promptTokens = number(a, value(), 1);
    else if (a == "--gen-tokens")
      o.genTokens = number(a, value(), 1);
    else if (a == "--repetitions")
      o.repetitions = number(a, value(), 1);
    else if (a == "-h" || a == "--help") {
      fputs(usageText, stdout);
      exit(0);
    } else if (a.size() > 1 && a[0] == '-')
      usage("unknown option '" + a + "'");
    else
      o.positional.push_back(a);
  }
  return o;
}

allm_model *load(const std::string &path, const allm_load_params &p) {
  allm_model *m = allm_load(path.c_str(), &p);
  if (!m)
    die(allm_last_error());
  return m;
}

// The --draft model (loaded like the model), or null.
allm_model *loadDraft(Options &o) {
  if (o.draft.empty())
    return nullptr;
  return o.gen.draft = load(o.draft, o.load);
}

std::string draftStats(const allm_stats &s) {
  if (s.drafted_tokens == 0)
    return "";
  char buf[96];
  snprintf(buf, sizeof buf, "; drafted %d tokens, accepted %d (%.0f%%)", s.drafted_tokens,
           s.accepted_tokens, 100.0 * s.accepted_tokens / s.drafted_tokens);
  return buf;
}

int generate(Options &o) {
  if (o.positional.size() != 2)
    usage("generate takes MODEL and PROMPT");
  std::string prompt =
      o.promptFile ? readText(o.positional[1], "prompt", kMaxPromptBytes) : o.positional[1];
  std::vector<const char *> stops;
  for (const std::string &s : o.stops)
    stops.push_back(s.c_str());
  o.gen.stop = stops.data();
  o.gen.n_stop = (int)stops.size();
  if (!o.grammar.empty())
    o.gen.grammar = o.grammar.c_str();
  o.load.n_ctx = std::max(o.load.n_ctx, 16);
  allm_model *m = load(o.positional[0], o.load), *draft = loadDraft(o);
  std::vector<char> out(64 + 64 * (size_t)o.gen.max_new_tokens);
  allm_stats s;
  if (allm_generate(m, prompt.c_str(), &o.gen, out.data(), out.size(), &s) < 0)
    die(allm_last_error());
  printf("%s\n", out.data());
  if (o.stats)
    fprintf(stderr, "prompt: %d tokens, %.1f tokens/s; generated: %d tokens, %.1f tokens/s%s%s\n",
            s.prompt_tokens, s.prompt_tokens / std::max(s.prompt_seconds, 1e-9),
            s.generated_tokens, s.generated_tokens / std::max(s.generate_seconds, 1e-9),
            draftStats(s).c_str(), s.cached ? " (replayed from APPROX_LLM_CACHE)" : "");
  allm_free(draft);
  allm_free(m);
  return 0;
}

int count(Options &o) {
  if (o.positional.size() != 2)
    usage("count takes MODEL and TEXT");
  allm_model *m = load(o.positional[0], o.load);
  int n = allm_count_tokens(m, o.positional[1].c_str(), 1);
  if (n < 0)
    die(allm_last_error());
  printf("%d\n", n);
  allm_free(m);
  return 0;
}

int embed(Options &o) {
  if (o.positional.size() != 2)
    usage("embed takes MODEL and TEXT");
  o.load.embeddings = 1;
  allm_model *m = load(o.positional[0], o.load);
  std::vector<float> e(allm_n_embd(m));
  if (allm_embed(m, o.positional[1].c_str(), e.data(), (int)e.size()) < 0)
    die(allm_last_error());
  printf("%zu", e.size());
  for (float x : e)
    printf(" %.6g", x);
  printf("\n");
  allm_free(m);
  return 0;
}

int embedFile(Options &o) {
  if (o.positional.size() != 3)
    usage("embed-file takes MODEL, IN and OUT");
  const std::string &inPath = o.positional[1], &outPath = o.positional[2];
  std::vector<std::string> lines;
  {
    std::string text = readText(inPath, "text file", kMaxTextsBytes);
    for (size_t at = 0; at < text.size();) {
      size_t end = std::min(text.find('\n', at), text.size());
      lines.push_back(text.substr(at, end - at));
      at = end + 1;
    }
  }
  for (size_t i = 0; i < lines.size(); i++)
    if (lines[i].find_first_not_of(" \t\r") == std::string::npos)
      die(inPath + ":" + std::to_string(i + 1) + ": empty line (one text per line)");
  char why[APPROX_WHY_SIZE];
  const char *inputs[] = {inPath.c_str(), o.positional[0].c_str()};
  approx_output staged;
  // Checked before the model loads: nothing is written until the texts
  // are embedded, and an output naming an input is refused.
  if (approx_output_open(&staged, outPath.c_str(), inputs, 2, why) != 0)
    die(why);
  FILE *out = staged.file;
  o.load.embeddings = 1;
  allm_model *m = load(o.positional[0], o.load);
  size_t dim = (size_t)allm_n_embd(m);
  const size_t chunk = 256;
  std::vector<float> rows(chunk * dim);
  std::vector<const char *> texts;
  auto start = std::chrono::steady_clock::now();
  double shown = 0;
  for (size_t at = 0; at < lines.size(); at += chunk) {
    size_t n = std::min(chunk, lines.size() - at);
    texts.clear();
    for (size_t i = 0; i < n; i++)
      texts.push_back(lines[at + i].c_str());
    if (allm_embed_batch(m, texts.data(), (int)n, rows.data(), rows.size()) < 0) {
      approx_output_discard(&staged);
      die(inPath + ": lines " + std::to_string(at + 1) + "-" + std::to_string(at + n) + ": " +
          allm_last_error());
    }
    if (fwrite(rows.data(), sizeof(float) * dim, n, out) != n) {
      int e = errno;
      approx_output_discard(&staged);
      die("cannot write '" + outPath + "': " + strerror(e));
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    size_t done = at + n;
    if (s - shown >= 2 || done == lines.size()) {
      shown = s;
      double rate = done / std::max(s, 1e-9);
      fprintf(stderr, "embed-file: %zu/%zu texts, %.0f texts/s, %.0f s left\n", done,
              lines.size(), rate, (lines.size() - done) / std::max(rate, 1e-9));
    }
  }
  if (approx_output_commit(&staged, why) != 0)
    die(why);
  allm_free(m);
  return 0;
}

int quantize(Options &o) {
  if (o.positional.size() != 3)
    usage("quantize takes IN, OUT and TYPE");
  if (allm_quantize(o.positional[0].c_str(), o.positional[1].c_str(), o.positional[2].c_str(),
                    o.load.n_threads) != 0)
    die(allm_last_error());
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int bench(Options &o) {
  if (o.positional.size() != 1)
    usage("bench takes MODEL");
  allm_model *m = load(o.positional[0], o.load), *draft = loadDraft(o);
  // A prompt of about --prompt-tokens tokens of ordinary English text.
  std::string prompt;
  const char *words = "the history of the river valley and its towns is told in many old books ";
  while (allm_count_tokens(m, prompt.c_str(), 1) < o.promptTokens)
    prompt += words;
  o.gen.max_new_tokens = o.genTokens;
  std::vector<double> pp, tg;
  std::vector<char> out(64 + 64 * (size_t)o.genTokens);
  allm_stats s{};
  for (int r = 0; r < o.repetitions; r++) {
    if (allm_generate(m, prompt.c_str(), &o.gen, out.data(), out.size(), &s) < 0)
      die(allm_last_error());
    pp.push_back(s.prompt_tokens / s.prompt_seconds);
    if (s.generated_tokens > 0)
      tg.push_back(s.generated_tokens / s.generate_seconds);
  }
  printf("model=%s prompt_tokens=%d prompt_tps=%.1f generated_tokens=%d generate_tps=%.1f",
         o.positional[0].c_str(), s.prompt_tokens, median(pp), s.generated_tokens,
         tg.empty() ? 0.0 : median(tg));
  if (draft)
    printf(" drafted_tokens=%d accepted_tokens=%d", s.drafted_tokens, s.accepted_tokens);
  printf("\n");
  allm_free(draft);
  allm_free(m);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    usage();
  std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help") {
    fputs(usageText, stdout);
    return 0;
  }
  Options o = parse(argc, argv);
  if (cmd == "generate")
    return generate(o);
  if (cmd == "count")
    return count(o);
  if (cmd == "embed")
    return embed(o);
  if (cmd == "embed-file")
    return embedFile(o);
  if (cmd == "quantize")
    return quantize(o);
  if (cmd == "bench")
    return bench(o);
  usage("unknown command '" + cmd + "'");
}
