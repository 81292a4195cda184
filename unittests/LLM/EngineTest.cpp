//===- EngineTest.cpp - the LLM engine with real weights ------------------===//
//
// Runs the engine on the smallest real model (SmolLM2-135M-Instruct Q4_1)
// from $APPROX_MODELS (scripts/paths.sh; scripts/test.sh sets it). A missing
// model fails the tests: it is installed by scripts/setup.sh.
//
//===----------------------------------------------------------------------===//
#include "approx_llm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string modelsDir() {
  const char *d = getenv("APPROX_MODELS");
  return d ? d : "";
}

std::string smallModel() { return modelsDir() + "/smollm2-135m-instruct-q4_1.gguf"; }

/// A new directory under gtest's temporary directory (TEST_TMPDIR when the
/// harness sets it, so that a failed test leaves nothing in /tmp).
std::string tempDir() {
  std::string tmpl = ::testing::TempDir() + "approx-llm-test-XXXXXX";
  return mkdtemp(tmpl.data());
}

std::string neverWritten() { return ::testing::TempDir() + "never-written.gguf"; }

class EngineTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    ASSERT_FALSE(modelsDir().empty()) << "APPROX_MODELS is not set (source scripts/paths.sh)";
    model = allm_load(smallModel().c_str(), nullptr);
    ASSERT_NE(model, nullptr) << allm_last_error();
  }
  static void TearDownTestSuite() {
    allm_free(model);
    model = nullptr;
  }
  static std::string generate(const char *prompt, int maxTokens, allm_stats *s = nullptr,
                              const char *grammar = nullptr) {
    allm_gen_params g = allm_gen_defaults();
    g.max_new_tokens = maxTokens;
    g.grammar = grammar;
    char out[4096];
    EXPECT_GE(allm_generate(model, prompt, &g, out, sizeof out, s), 0) << allm_last_error();
    return out;
  }
  static allm_model *model;
};
allm_model *EngineTest::model = nullptr;

const char *kPrompt = "The capital of France is";

TEST_F(EngineTest, GreedyGenerationIsDeterministic) {
  allm_stats s1, s2;
  std::string a = generate(kPrompt, 12, &s1), b = generate(kPrompt, 12, &s2);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_EQ(s1.prompt_tokens, s2.prompt_tokens);
  EXPECT_EQ(s1.generated_tokens, s2.generated_tokens);
  EXPECT_LE(s1.generated_tokens, 12);
  EXPECT_GT(s1.prompt_seconds, 0);
  EXPECT_EQ(s1.cached, 0);
}

TEST_F(EngineTest, RealWeightsKnowFacts) {
  EXPECT_NE(generate(kPrompt, 8).find("Paris"), std::string::npos);
}

TEST_F(EngineTest, SameOutputFromASecondLoad) {
  allm_model *other = allm_load(smallModel().c_str(), nullptr);
  ASSERT_NE(other, nullptr) << allm_last_error();
  allm_gen_params g = allm_gen_defaults();
  g.max_new_tokens = 12;
  char out[1024];
  ASSERT_GE(allm_generate(other, kPrompt, &g, out, sizeof out, nullptr), 0);
  EXPECT_EQ(generate(kPrompt, 12), out);
  allm_free(other);
}

TEST_F(EngineTest, SeededSamplingIsReproducible) {
  allm_gen_params g = allm_gen_defaults();
  g.max_new_tokens = 16;
  g.temperature = 1.5f;
  g.seed = 7;
  char a[1024], b[1024];
  ASSERT_GE(allm_generate(model, kPrompt, &g, a, sizeof a, nullptr), 0);
  ASSERT_GE(allm_generate(model, kPrompt, &g, b, sizeof b, nullptr), 0);
  EXPECT_STREQ(a, b);
}

TEST_F(EngineTest, StopStringsEndTheAnswerBeforeThem) {
  const char *stop[] = {" "};
  allm_gen_params g = allm_gen_defaults();
  g.max_new_tokens = 16;
  g.stop = stop;
  g.n_stop = 1;
  char out[1024];
  // The continuation starts with " Paris": the stop string at its start
  // leaves the empty answer, so stop on the second space instead.
  ASSERT_GE(allm_generate(model, kPrompt, &g, out, sizeof out, nullptr), 0);
  EXPECT_EQ(std::string(out).find(' '), std::string::npos);
}

TEST_F(EngineTest, GrammarConstrainsTheOutput) {
  std::string out = generate("Is the sky blue? Answer yes or no:", 8, nullptr,
                             "root ::= \" \" (\"yes\" | \"no\")");
  EXPECT_TRUE(out == " yes" || out == " no") << out;
}

TEST_F(EngineTest, InvalidGrammarIsAnError) {
  allm_gen_params g = allm_gen_defaults();
  g.grammar = "root ::= (";
  char out[64];
  EXPECT_EQ(allm_generate(model, kPrompt, &g, out, sizeof out, nullptr), -1);
  EXPECT_NE(std::string(allm_last_error()).find("grammar"), std::string::npos);
}

TEST_F(EngineTest, CountsTokens) {
  int withBos = allm_count_tokens(model, kPrompt, 1), without = allm_count_tokens(model, kPrompt, 0);
  EXPECT_GT(without, 3);
  EXPECT_LE(withBos - without, 1);
  allm_stats s;
  generate(kPrompt, 1, &s);
  EXPECT_EQ(s.prompt_tokens, withBos);
  EXPECT_EQ(allm_count_tokens(model, "", 0), 0);
}

TEST_F(EngineTest, PromptLongerThanTheContextIsAnError) {
  allm_load_params lp = allm_load_defaults();
  lp.n_ctx = 64;
  allm_model *small = allm_load(smallModel().c_str(), &lp);
  ASSERT_NE(small, nullptr) << allm_last_error();
  std::string prompt;
  for (int i = 0; i < 40; i++)
    prompt += "many words here ";
  allm_gen_params g = allm_gen_defaults();
  char out[256];
  EXPECT_EQ(allm_generate(small, prompt.c_str(), &g, out, sizeof out, nullptr), -1);
  EXPECT_NE(std::string(allm_last_error()).find("exceeds the context of 64 tokens"),
            std::string::npos)
      << allm_last_error();
  allm_free(small);
}

TEST_F(EngineTest, SmallOutputBufferIsAnError) {
  allm_gen_params g = allm_gen_defaults();
  g.max_new_tokens = 8;
  char out[2];
  EXPECT_EQ(allm_generate(model, kPrompt, &g, out, sizeof out, nullptr), -1);
  EXPECT_NE(std::string(allm_last_error()).find("does not fit"), std::string::npos);
}

TEST_F(EngineTest, BadParametersAreErrors) {
  allm_gen_params g = allm_gen_defaults();
  g.max_new_tokens = 0;
  char out[64];
  EXPECT_EQ(allm_generate(model, kPrompt, &g, out, sizeof out, nullptr), -1);
  EXPECT_EQ(allm_generate(nullptr, kPrompt, nullptr, out, sizeof out, nullptr), -1);
  float e[8];
  EXPECT_EQ(allm_embed(model, "x", e, 8), -1); // not loaded for embeddings
  EXPECT_NE(std::string(allm_last_error()).find("embeddings"), std::string::npos);
}

TEST(EngineLoadTest, MissingModelIsAnError) {
  EXPECT_EQ(allm_load("/nonexistent/model.gguf", nullptr), nullptr);
  EXPECT_NE(std::string(allm_last_error()).find("'/nonexistent/model.gguf'"), std::string::npos);
  EXPECT_NE(std::string(allm_last_error()).find("No such file"), std::string::npos);
}

TEST(EngineLoadTest, NotAGgufFileIsAnError) {
  std::string dir = tempDir(), path = dir + "/model.gguf";
  std::ofstream(path) << "this is not a model\n";
  EXPECT_EQ(allm_load(path.c_str(), nullptr), nullptr);
  EXPECT_NE(std::string(allm_last_error()).find("not a GGUF file"), std::string::npos);
  unlink(path.c_str());
  rmdir(dir.c_str());
}

TEST(EngineLoadTest, TruncatedModelIsAnError) {
  // The first megabyte of a real model: a valid GGUF header, missing tensors.
  std::string dir = tempDir(), path = dir + "/truncated.gguf";
  {
    std::ifstream in(smallModel(), std::ios::binary);
    ASSERT_TRUE(in) << smallModel();
    std::vector<char> head(1 << 20);
    in.read(head.data(), head.size());
    std::ofstream(path, std::ios::binary).write(head.data(), in.gcount());
  }
  EXPECT_EQ(allm_load(path.c_str(), nullptr), nullptr);
  EXPECT_NE(std::string(allm_last_error()).find("cannot load model"), std::string::npos);
  unlink(path.c_str());
  rmdir(dir.c_str());
}

TEST(EngineLoadTest, EmbeddingsAreNormalisedAndDeterministic) {
  allm_load_params lp = allm_load_defaults();
  lp.embeddings = 1;
  allm_model *m = allm_load(smallModel().c_str(), &lp);
  ASSERT_NE(m, nullptr) << allm_last_error();
  int dim = allm_n_embd(m);
  ASSERT_GT(dim, 0);
  std::vector<float> a(dim), b(dim), c(dim);
  ASSERT_EQ(allm_embed(m, "The cat sat on the mat.", a.data(), dim), dim) << allm_last_error();
  ASSERT_EQ(allm_embed(m, "The cat sat on the mat.", b.data(), dim), dim);
  ASSERT_EQ(allm_embed(m, "Quarterly tax filing deadlines", c.data(), dim), dim);
  double norm = 0, same = 0, other = 0;
  for (int i = 0; i < dim; i++) {
    norm += a[i] * a[i];
    same += a[i] * b[i];
    other += a[i] * c[i];
  }
  EXPECT_NEAR(norm, 1.0, 1e-4);
  EXPECT_NEAR(same, 1.0, 1e-5);
  EXPECT_LT(other, 0.999);
  EXPECT_EQ(allm_embed(m, "x", a.data(), dim - 1), -1);
  allm_free(m);
}

TEST(EngineLoadTest, TokenizesWithSpecialTokensAndTruncatesKeepingTheLast) {
  allm_load_params lp = allm_load_defaults();
  lp.embeddings = 1;
  std::string path = modelsDir() + "/all-minilm-l6-v2.gguf";
  allm_model *m = allm_load(path.c_str(), &lp);
  ASSERT_NE(m, nullptr) << allm_last_error();
  // BERT's WordPiece vocabulary: [CLS] hello world [SEP], lower-cased.
  int32_t ids[8];
  ASSERT_EQ(allm_tokenize(m, "Hello world", 1, ids, 8), 4) << allm_last_error();
  EXPECT_EQ(std::vector<int32_t>(ids, ids + 4), (std::vector<int32_t>{101, 7592, 2088, 102}));
  ASSERT_EQ(allm_tokenize(m, "Hello world", 0, ids, 8), 2);
  EXPECT_EQ(ids[0], 7592);
  // Three slots: the first two tokens and the last ([SEP]); the full count.
  int32_t few[3];
  ASSERT_EQ(allm_tokenize(m, "hello world hello world", 1, few, 3), 6);
  EXPECT_EQ(std::vector<int32_t>(few, few + 3), (std::vector<int32_t>{101, 7592, 102}));
  EXPECT_EQ(allm_tokenize(m, nullptr, 1, few, 3), -1);
  allm_free(m);
}

TEST(EngineLoadTest, BatchedEmbeddingsEqualSingleOnesAndTruncateOnlyWhenAsked) {
  allm_load_params lp = allm_load_defaults();
  lp.embeddings = 1;
  lp.n_ctx = 32;
  std::string path = modelsDir() + "/all-minilm-l6-v2.gguf";
  allm_model *strict = allm_load(path.c_str(), &lp);
  lp.truncate = 1;
  allm_model *m = allm_load(path.c_str(), &lp);
  ASSERT_NE(m, nullptr) << allm_last_error();
  ASSERT_NE(strict, nullptr) << allm_last_error();
  int dim = allm_n_embd(m);
  ASSERT_EQ(dim, 384);
  std::string longText;
  for (int i = 0; i < 20; i++)
    longText += "the quick brown fox jumps over the lazy dog ";
  // More texts than one batch holds (64 texts), of different lengths.
  std::vector<std::string> texts;
  for (int i = 0; i < 70; i++)
    texts.push_back(i % 7 == 3 ? longText : "sentence number " + std::to_string(i * 37));
  std::vector<const char *> ptrs;
  for (auto &t : texts)
    ptrs.push_back(t.c_str());
  std::vector<float> batch(texts.size() * dim), one(dim);
  ASSERT_EQ(allm_embed_batch(m, ptrs.data(), (int)ptrs.size(), batch.data(), batch.size()),
            (int)texts.size())
      << allm_last_error();
  for (size_t i = 0; i < texts.size(); i++) {
    ASSERT_EQ(allm_embed(m, ptrs[i], one.data(), dim), dim);
    double dot = 0;
    for (int j = 0; j < dim; j++)
      dot += one[j] * batch[i * dim + j];
    EXPECT_NEAR(dot, 1.0, 1e-5) << "text " << i;
  }
  // Without truncate, the long text is an error naming it.
  EXPECT_EQ(allm_embed_batch(strict, ptrs.data(), 5, batch.data(), batch.size()), -1);
  EXPECT_NE(std::string(allm_last_error()).find("text 3"), std::string::npos);
  EXPECT_EQ(allm_embed_batch(m, ptrs.data(), 5, batch.data(), 4 * dim), -1); // too small
  const char *withNull[] = {"fine", nullptr};
  EXPECT_EQ(allm_embed_batch(m, withNull, 2, batch.data(), batch.size()), -1);
  EXPECT_NE(std::string(allm_last_error()).find("text 1 is null"), std::string::npos);
  allm_free(m);
  allm_free(strict);
}

TEST_F(EngineTest, FirstTokenProbabilityIsAmongTheTokensTheGrammarAllows) {
  allm_stats free{}, yesNo{}, forced{};
  generate("Is Paris the capital of France? Answer yes or no:", 2, &free);
  generate("Is Paris the capital of France? Answer yes or no:", 2, &yesNo,
           "root ::= \" yes\" | \" no\"");
  generate("Is Paris the capital of France? Answer yes or no:", 2, &forced,
           "root ::= \"zebra\"");
  EXPECT_GT(free.first_token_prob, 0);
  EXPECT_LE(free.first_token_prob, 1);
  // The mass is renormalised over the tokens that can start " yes" or " no".
  EXPECT_LE(yesNo.first_token_prob, 1);
  EXPECT_GT(yesNo.first_token_prob, free.first_token_prob);
  // One allowed answer: its possible first tokens ("z", "ze", ..., "zebra")
  // hold all the mass, whatever the model thinks of zebras; the greedy one
  // nearly all of it.
  EXPECT_GT(forced.first_token_prob, 0.9);
  EXPECT_LE(forced.first_token_prob, 1);
}

// Shared prefixes, on both model families of the compound systems (Gemma 3
// has sliding-window layers, SmolLM2 has none): the text and the first
// token's probability (a function of the logits, so of every KV value) are
// the same whether the prefix was decoded by this call, kept live from the
// previous one or restored from a saved copy, whatever came before.
class SharedPrefixTest : public ::testing::TestWithParam<const char *> {};

TEST_P(SharedPrefixTest, SameTextWhateverCameBefore) {
  allm_model *m = allm_load((modelsDir() + "/" + GetParam()).c_str(), nullptr);
  ASSERT_NE(m, nullptr) << allm_last_error();
  const std::string shots = "Answer each question with a short answer.\n\n"
                            "Question: what is the capital of italy\nAnswer: Rome\n\n"
                            "Question: who wrote hamlet\nAnswer: William Shakespeare\n\n";
  const std::string other = "Translate into French.\n\nEnglish: cat\nFrench: chat\n\n";
  struct Out {
    std::string text;
    allm_stats s;
  };
  auto run = [&](const std::string &prefix, const std::string &rest, int prefixBytes) {
    std::string prompt = prefix + rest;
    allm_gen_params g = allm_gen_defaults();
    g.max_new_tokens = 8;
    g.prefix_bytes = prefixBytes;
    char out[512];
    Out o;
    EXPECT_GE(allm_generate(m, prompt.c_str(), &g, out, sizeof out, &o.s), 0)
        << allm_last_error();
    o.text = out;
    return o;
  };
  const std::string q1 = "Question: what is the capital of germany\nAnswer:";
  const std::string q2 = "Question: who painted the mona lisa\nAnswer:";
  int n = (int)shots.size();
  Out decoded = run(shots, q1, n);              // the prefix decoded (a new model)
  Out live2 = run(shots, q2, n);                // kept live from the previous call
  Out elsewhere = run(other, "English: dog\nFrench:", (int)other.size());
  Out restored = run(shots, q1, n);             // restored from its saved copy
  Out live = run(shots, q1, n);                 // live again
  Out whole = run(shots, q1, 0);                // no prefix: decoded whole
  Out again = run(shots, q1, n);                // after a call without a prefix
  EXPECT_FALSE(decoded.text.empty());
  EXPECT_NE(decoded.text.find("Berlin"), std::string::npos) << decoded.text;
  // The prefix's tokens, less one where the tokenizer gives its trailing
  // newlines to the word after it (SmolLM2's).
  int prefixTokens = allm_count_tokens(m, shots.c_str(), 1);
  EXPECT_GE(live2.s.reused_tokens, prefixTokens - 1);
  EXPECT_LE(live2.s.reused_tokens, prefixTokens);
  EXPECT_EQ(decoded.s.reused_tokens, 0);
  EXPECT_EQ(elsewhere.s.reused_tokens, 0);
  EXPECT_EQ(restored.s.reused_tokens, live2.s.reused_tokens);
  EXPECT_EQ(live.s.reused_tokens, live2.s.reused_tokens);
  EXPECT_EQ(whole.s.reused_tokens, 0);
  EXPECT_EQ(again.s.reused_tokens, live2.s.reused_tokens);
  for (const Out *o : {&restored, &live, &again}) {
    EXPECT_EQ(o->text, decoded.text);
    EXPECT_DOUBLE_EQ(o->s.first_token_prob, decoded.s.first_token_prob);
    EXPECT_EQ(o->s.prompt_tokens, decoded.s.prompt_tokens);
  }
  // The prompt is tokenized whole either way: the counts agree.
  EXPECT_EQ(whole.s.prompt_tokens, decoded.s.prompt_tokens);
  // A second model decoding the same prompt with the same prefix agrees.
  allm_model *fresh = allm_load((modelsDir() + "/" + GetParam()).c_str(), nullptr);
  ASSERT_NE(fresh, nullptr) << allm_last_error();
  std::swap(m, fresh);
  Out second = run(shots, q1, n);
  std::swap(m, fresh);
  allm_free(fresh);
  EXPECT_EQ(second.text, decoded.text);
  EXPECT_DOUBLE_EQ(second.s.first_token_prob, decoded.s.first_token_prob);

  // A prefix longer than the prompt is an error naming both lengths.
  allm_gen_params g = allm_gen_defaults();
  g.prefix_bytes = 100;
  char out[64];
  EXPECT_EQ(allm_generate(m, "short", &g, out, sizeof out, nullptr), -1);
  EXPECT_NE(std::string(allm_last_error()).find("prefix_bytes 100 is not within the prompt's 5 bytes"),
            std::string::npos)
      << allm_last_error();
  g.prefix_bytes = -1;
  EXPECT_EQ(allm_generate(m, "short", &g, out, sizeof out, nullptr), -1);
  allm_free(m);
}

INSTANTIATE_TEST_SUITE_P(Models, SharedPrefixTest,
                         ::testing::Values("gemma-3-270m-q4_k_m.gguf",
                                           "smollm2-135m-instruct-q4_1.gguf"));

class MemoTest : public EngineTest {};

TEST_F(MemoTest, ReplaysTheTextAndChargesTheMeasuredTime) {
  std::string dir = tempDir();
  setenv("APPROX_LLM_CACHE", dir.c_str(), 1);
  allm_stats first, second;
  double before = allm_time_adjustment();
  std::string a = generate("Water boils at a temperature of", 10, &first);
  std::string b = generate("Water boils at a temperature of", 10, &second);
  std::string c = generate("Water boils at a temperature of", 11); // other parameters
  unsetenv("APPROX_LLM_CACHE");
  EXPECT_EQ(a, b);
  EXPECT_EQ(first.cached, 0);
  EXPECT_EQ(second.cached, 1);
  EXPECT_EQ(second.prompt_tokens, first.prompt_tokens);
  EXPECT_EQ(second.generated_tokens, first.generated_tokens);
  EXPECT_DOUBLE_EQ(second.prompt_seconds + second.generate_seconds,
                   first.prompt_seconds + first.generate_seconds);
  EXPECT_DOUBLE_EQ(second.first_token_prob, first.first_token_prob);
  // The replayed call cost less than it is charged: the difference is added.
  EXPECT_GT(allm_time_adjustment() - before, 0);
  EXPECT_LE(allm_time_adjustment() - before, first.prompt_seconds + first.generate_seconds);
  int entries = 0;
  DIR *d = opendir(dir.c_str());
  for (dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') {
      entries++;
      unlink((dir + "/" + e->d_name).c_str());
    }
  closedir(d);
  rmdir(dir.c_str());
  EXPECT_EQ(entries, 2);
}

TEST(QuantizeTest, UnknownTypeAndMissingInputAreErrors) {
  EXPECT_EQ(allm_quantize(smallModel().c_str(), neverWritten().c_str(), "Q9_X", 1), -1);
  EXPECT_NE(std::string(allm_last_error()).find("unknown quantization type 'Q9_X'"),
            std::string::npos);
  EXPECT_EQ(allm_quantize("/nonexistent.gguf", neverWritten().c_str(), "Q4_0", 1), -1);
  EXPECT_NE(std::string(allm_last_error()).find("/nonexistent.gguf"), std::string::npos);
  EXPECT_NE(access(neverWritten().c_str(), F_OK), 0);
}

} // namespace
