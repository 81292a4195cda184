/* What the compound systems share (header only, plain C): the command line,
 * reading the passages and questions, the few-shot QA prompt, the QA models
 * and their generation call, the answers file and the end-of-run summary.
 * Files follow approx_files.h: inputs are read with a limit, the answers
 * and trace files are never an input and appear only when the run succeeds
 * (a failed run leaves the previous ones).
 *
 * The including program defines its own knob functions (their annotations
 * differ from system to system) and calls these helpers:
 *   int passage_words(void);  words kept of each passage in the prompt
 *   int answer_tokens(void);  maximum new tokens of an answer
 * and sets `rag_program` (the name in messages) before anything else. */
#ifndef APPROX_RAG_H
#define APPROX_RAG_H

#include "approx_files.h"
#include "approx_llm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int passage_words(void);
int answer_tokens(void);

static const char *rag_program = "rag";

/* The questions file and the question being answered (-1: none): errors
 * while answering it name its line (rag_at_question). */
static const char *rag_questions_path;
static int rag_question = -1;

static void rag_at_question(int q) { rag_question = q; }

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (rag_question >= 0 && rag_questions_path)
    fprintf(stderr, "%s:%d: error: ", rag_questions_path, rag_question + 1);
  else
    fprintf(stderr, "%s: error: ", rag_program);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

/* ---- Command line ------------------------------------------------------- */

typedef struct {
  const char *passages, *questions, *models, *output, *trace, *embeddings, *embedder;
  const char *qa_model; /* --qa-model: the exact QA model's file instead of the default */
} rag_args;

/* The optional arguments a system takes (rag_parse_args's `extra`). */
enum { RAG_EMBEDDINGS = 1, RAG_EMBEDDER = 2 };

/* --passages FILE --questions FILE --models DIR --output FILE [--trace FILE]
 * [--qa-model FILE], with --embeddings FILE where `extra` has RAG_EMBEDDINGS
 * and --embedder DIR where it has RAG_EMBEDDER (both required then);
 * anything else prints `usage` and exits with status 2. --qa-model names a
 * file of the models folder that replaces the exact QA model (model 0 of
 * RAG_MODEL_FILES), to measure other models in the same system. */
static rag_args rag_parse_args(int argc, char **argv, const char *usage, int extra) {
  rag_args a = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 1; i < argc; i++) {
    const char **slot = !strcmp(argv[i], "--passages")    ? &a.passages
                        : !strcmp(argv[i], "--questions") ? &a.questions
                        : !strcmp(argv[i], "--models")    ? &a.models
                        : !strcmp(argv[i], "--output")    ? &a.output
                        : !strcmp(argv[i], "--trace")     ? &a.trace
                        : !strcmp(argv[i], "--qa-model")  ? &a.qa_model
                        : !strcmp(argv[i], "--embeddings") && (extra & RAG_EMBEDDINGS)
                            ? &a.embeddings
                        : !strcmp(argv[i], "--embedder") && (extra & RAG_EMBEDDER) ? &a.embedder
                                                                                   : 0;
    if (!slot || i + 1 >= argc) {
      fprintf(stderr, "usage: %s\n", usage);
      exit(2);
    }
    *slot = argv[++i];
  }
  if (!a.passages || !a.questions || !a.models || !a.output ||
      ((extra & RAG_EMBEDDINGS) && !a.embeddings) || ((extra & RAG_EMBEDDER) && !a.embedder)) {
    fprintf(stderr, "usage: %s\n", usage);
    exit(2);
  }
  return a;
}

/* The answers file and, when asked for, the trace file (staged until
 * rag_finish). */
static approx_output rag_out, rag_trace;

static void rag_open_outputs(const rag_args *a, FILE **out, FILE **trace) {
  const char *inputs[] = {a->passages, a->questions, a->embeddings, a->output};
  char why[APPROX_WHY_SIZE];
  if (approx_output_open(&rag_out, a->output, inputs, 3, why) != 0)
    die("%s", why);
  *out = rag_out.file;
  *trace = 0;
  if (a->trace) {
    if (!strcmp(a->trace, a->output) || approx_same_file(a->trace, a->output))
      die("--trace and --output name the same file ('%s')", a->output);
    if (approx_output_open(&rag_trace, a->trace, inputs, 4, why) != 0)
      die("%s", why);
    *trace = rag_trace.file;
  }
}

/* ---- Input files ------------------------------------------------------ */

/* The largest input read (the corpora here are a few MiB). */
#define RAG_MAX_INPUT_BYTES ((size_t)1 << 30)

static char *read_all(const char *path, long *len) {
  char why[APPROX_WHY_SIZE];
  size_t n = 0;
  char *buf = approx_read_file(path, RAG_MAX_INPUT_BYTES, &n, why);
  if (!buf)
    die("%s", why);
  *len = (long)n;
  return buf;
}

/* Splits `buf` (the text of `path`) into lines and each line into
 * tab-separated fields (in place); a NUL byte is a located error (it would
 * silently end its line's text). Returns the number of lines; (*lines)[i]
 * points at line i's first field, (*nfields)[i] counts them. */
static int split_tsv(const char *path, char *buf, long len, char ***lines, int **nfields) {
  long nul = approx_find_nul(buf, (size_t)len);
  if (nul >= 0) {
    fprintf(stderr, "%s:%ld: error: a NUL byte (byte %ld of the file)\n", path,
            approx_line_of(buf, (size_t)nul), nul);
    exit(1);
  }
  int cap = 1024, n = 0;
  *lines = malloc(sizeof(char *) * cap);
  *nfields = malloc(sizeof(int) * cap);
  char *p = buf;
  while (p < buf + len) {
    char *end = strchr(p, '\n');
    if (!end)
      end = buf + len;
    *end = 0;
    if (n == cap) {
      cap *= 2;
      *lines = realloc(*lines, sizeof(char *) * cap);
      *nfields = realloc(*nfields, sizeof(int) * cap);
    }
    int f = 1;
    for (char *q = p; *q; q++)
      if (*q == '\t') {
        *q = 0;
        f++;
      }
    (*lines)[n] = p;
    (*nfields)[n++] = f;
    p = end + 1;
  }
  return n;
}

static const char *nth_field(const char *line, int i) {
  while (i-- > 0)
    line += strlen(line) + 1;
  return line;
}

/* The passages (id, title, text), at least `min` of them. */
static const char *const *ptitle, *const *ptext;

static int rag_read_passages(const char *path, int min) {
  long len;
  char *buf = read_all(path, &len), **lines;
  int *fields;
  int n = split_tsv(path, buf, len, &lines, &fields);
  char **titles = malloc(sizeof(char *) * (n ? n : 1)),
       **texts = malloc(sizeof(char *) * (n ? n : 1));
  for (int d = 0; d < n; d++) {
    if (fields[d] != 3 || !*nth_field(lines[d], 2)) {
      fprintf(stderr, "%s:%d: error: expected 'id<TAB>title<TAB>text', got %d field(s)\n", path,
              d + 1, fields[d]);
      exit(1);
    }
    titles[d] = (char *)nth_field(lines[d], 1);
    texts[d] = (char *)nth_field(lines[d], 2);
  }
  if (n < min) {
    fprintf(stderr, "%s: error: %d passages, at least %d needed\n", path, n, min);
    exit(1);
  }
  ptitle = (const char *const *)titles;
  ptext = (const char *const *)texts;
  return n;
}

/* The longest question (every prompt has room for it; NQ-open's are under
 * 100 bytes). */
enum { RAG_QUESTION_MAX = 1024 };

/* The questions (question, answers...; the answers are for the scorer):
 * (*questions)[i] is question i's text. Errors while answering question i
 * name line i + 1 of `path` (rag_at_question). */
static int rag_read_questions(const char *path, char ***questions) {
  rag_questions_path = path;
  long len;
  char *buf = read_all(path, &len);
  int *fields;
  int n = split_tsv(path, buf, len, questions, &fields);
  for (int q = 0; q < n; q++) {
    if (fields[q] < 2 || !*(*questions)[q]) {
      fprintf(stderr, "%s:%d: error: expected 'question<TAB>answer...', got %s\n", path, q + 1,
              *(*questions)[q] ? "no answer" : "an empty question");
      exit(1);
    }
    if (strlen((*questions)[q]) > RAG_QUESTION_MAX) {
      fprintf(stderr, "%s:%d: error: a question of %zu bytes; at most %d\n", path, q + 1,
              strlen((*questions)[q]), RAG_QUESTION_MAX);
      exit(1);
    }
  }
  if (n == 0) {
    fprintf(stderr, "%s: error: no questions\n", path);
    exit(1);
  }
  return n;
}

/* ---- Prompt ------------------------------------------------------------ */

/* The fixed start of every QA prompt (instructions, two examples, the
 * question's "Passages:" line): a shared prefix whose KV cache the engine
 * keeps (RAG_PREFIX_BYTES). */
static const char RAG_PROMPT_START[] =
    "Answer each question with a short answer (a few words) taken from its passages.\n\n"
    "Passages:\n[1] The Eiffel Tower: The Eiffel Tower is a wrought-iron lattice tower on "
    "the Champ de Mars in Paris, France. It was completed in 1889.\n"
    "Question: when was the eiffel tower completed\nAnswer: 1889\n\n"
    "Passages:\n[1] Pride and Prejudice: Pride and Prejudice is an 1813 novel of manners "
    "written by Jane Austen.\n"
    "Question: who wrote pride and prejudice\nAnswer: Jane Austen\n\n"
    "Passages:\n";
enum { RAG_PREFIX_BYTES = sizeof RAG_PROMPT_START - 1 };

/* The bytes of a printf format before its first conversion: the fixed start
 * of every prompt made from it (a shared prefix). */
static int rag_fixed_part(const char *format) { return (int)strcspn(format, "%"); }

/* A prompt that does not fit its buffer is an error (naming the question),
 * never a prompt cut short. */
static void rag_prompt_overflow(int cap) {
  die("the prompt does not fit its %d-byte buffer (a passage too long?)", cap);
}

/* Appends printf-formatted text at buf[at] (cap bytes in all); returns the
 * new end. */
static int rag_appendf(char *buf, int at, int cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int rag_appendf(char *buf, int at, int cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = at < cap ? vsnprintf(buf + at, (size_t)(cap - at), fmt, ap) : -1;
  va_end(ap);
  if (n < 0 || n >= cap - at)
    rag_prompt_overflow(cap);
  return at + n;
}

/* Appends the first passage_words() words of passage `id` as
 * "[i] title: text\n". */
static int append_passage(char *buf, int at, int cap, int i, int id) {
  at = rag_appendf(buf, at, cap, "[%d] %s: ", i, ptitle[id]);
  const char *t = ptext[id];
  int words = 0, limit = passage_words();
  while (*t && words < limit) {
    while (*t == ' ')
      t++;
    for (; *t && *t != ' '; t++) {
      if (at >= cap - 2)
        rag_prompt_overflow(cap);
      buf[at++] = *t;
    }
    if (at > cap - 2) /* room for the space and the NUL */
      rag_prompt_overflow(cap);
    buf[at++] = ' ';
    words++;
  }
  buf[at - 1] = '\n';
  buf[at] = 0;
  return at;
}

/* The few-shot prompt with the first `npass` passages of `top` (ids, -1
 * ends the list early). */
static int prompt_with(int npass, const int *top, const char *question, char *buf, int cap) {
  int at = rag_appendf(buf, 0, cap, "%s", RAG_PROMPT_START);
  for (int i = 0; i < npass && top[i] >= 0; i++)
    at = append_passage(buf, at, cap, i + 1, top[i]);
  return rag_appendf(buf, at, cap, "Question: %s\nAnswer:", question);
}

/* ---- QA models ---------------------------------------------------------- */

/* The QA models, exact first (file names in the models folder). */
enum { RAG_NMODELS = 5, RAG_ANSWER_MAX = 1024 };
static const char *RAG_MODEL_FILES[RAG_NMODELS] = {
    "gemma-3-270m-q4_k_m.gguf", "gemma-3-270m-q4_0.gguf", "gemma-3-270m-q3_k_m.gguf",
    "gemma-3-270m-q2_k.gguf", "smollm2-135m-instruct-q4_1.gguf"};
static allm_model *rag_models[RAG_NMODELS];
static int rag_model_uses[RAG_NMODELS];
static allm_stats rag_last_stats;

/* Loads a model of the models folder (before the clock starts). */
static allm_model *rag_load_model(const char *dir, const char *file, int embeddings) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  allm_load_params lp = allm_load_defaults();
  lp.n_ctx = embeddings ? 256 : 2048;
  lp.embeddings = embeddings;
  lp.truncate = embeddings;
  allm_model *m = allm_load(path, &lp);
  if (!m)
    die("%s", allm_last_error());
  return m;
}

static void rag_load_models(const rag_args *a) {
  const char *dir = a->models;
  if (a->qa_model)
    RAG_MODEL_FILES[0] = a->qa_model;
  for (int m = 0; m < RAG_NMODELS; m++)
    rag_models[m] = rag_load_model(dir, RAG_MODEL_FILES[m], 0);
}

/* Token counts and memoised calls of the run so far. */
static long rag_prompt_tokens, rag_reused_tokens, rag_generated_tokens;
static int rag_calls, rag_cached;

/* Continues `prompt` with model `m` (greedy; ends at a newline, at
 * "Question:" or after `max_tokens` tokens; `grammar` may be NULL) into
 * `out`; counts the call. The first `prefix_bytes` bytes of the prompt are
 * shared by many calls (the engine keeps their KV cache). The statistics stay
 * in rag_last_stats. */
static void rag_generate(int m, const char *prompt, int prefix_bytes, int max_tokens,
                         const char *grammar, char *out, int cap) {
  static const char *const stop[] = {"\n", "Question:"};
  allm_gen_params g = allm_gen_defaults();
  g.max_new_tokens = max_tokens;
  g.stop = stop;
  g.n_stop = 2;
  g.grammar = grammar;
  g.prefix_bytes = prefix_bytes;
  rag_model_uses[m]++;
  rag_calls++;
  if (allm_generate(rag_models[m], prompt, &g, out, cap, &rag_last_stats) < 0)
    die("generation failed: %s", allm_last_error());
  rag_prompt_tokens += rag_last_stats.prompt_tokens;
  rag_reused_tokens += rag_last_stats.reused_tokens;
  rag_generated_tokens += rag_last_stats.generated_tokens;
  rag_cached += rag_last_stats.cached;
}

/* Answers `prompt` (whose first `prefix_bytes` bytes are shared) with QA
 * model `m`, at most answer_tokens() tokens. Returns m. */
static int generate_with(int m, const char *prompt, int prefix_bytes, char *out, int cap) {
  rag_generate(m, prompt, prefix_bytes, answer_tokens(), 0, out, cap);
  return m;
}

/* ---- Output -------------------------------------------------------------- */

/* Records question q's answer (by model m, the last generation): the answer
 * as one line of the answers file, the counts, and where `trace` is open a
 * trace line (state, model, tokens, top passage, `extra` fields, answer). */
static void rag_record(FILE *out, FILE *trace, int q, int state, int m, int top,
                       const char *extra, char *answer) {
  for (char *c = answer; *c; c++)
    if (*c == '\n' || *c == '\r' || *c == '\t')
      *c = ' ';
  fprintf(out, "%s\n", answer);
  if (trace)
    fprintf(trace, "%d\tconfidence=%d\tmodel=%s\tprompt_tokens=%d\tgenerated=%d\ttop=%d%s%s\t%s\n",
            q, state, RAG_MODEL_FILES[m], rag_last_stats.prompt_tokens,
            rag_last_stats.generated_tokens, top, extra ? "\t" : "", extra ? extra : "", answer);
}

/* Closes the output files; the end of the summary line on stderr (tokens,
 * model use) and the time on stdout: `wall` plus the memoised calls'
 * replayed time. */
static void rag_finish(FILE *out, FILE *trace, const rag_args *a, double wall) {
  char why[APPROX_WHY_SIZE];
  (void)out;
  (void)a;
  rag_question = -1;
  if (approx_output_commit(&rag_out, why) != 0)
    die("%s", why);
  if (trace && approx_output_commit(&rag_trace, why) != 0)
    die("%s", why);
  fprintf(stderr,
          " (replayed %+.3f s, %d of %d LLM calls memoised); prompt tokens %ld (%ld of them a "
          "reused shared prefix), generated %ld; models",
          allm_time_adjustment(), rag_cached, rag_calls, rag_prompt_tokens, rag_reused_tokens,
          rag_generated_tokens);
  for (int m = 0; m < RAG_NMODELS; m++)
    fprintf(stderr, " %s=%d", RAG_MODEL_FILES[m], rag_model_uses[m]);
  fputc('\n', stderr);
  printf("%.6f\n", wall + allm_time_adjustment());
  for (int m = 0; m < RAG_NMODELS; m++)
    allm_free(rag_models[m]);
}

#endif
