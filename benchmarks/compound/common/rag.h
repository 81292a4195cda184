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
/* The runtime controller (a relative path: the compound systems are the
 * repository's own programs, compiled with only the LLM engine's headers on
 * the include path; approx-cc links the runtime). */
#include "../../../runtime/include/approx_controller.h"
#include "../../../runtime/include/approx_runtime.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int passage_words(void);
int answer_tokens(void);

static const char *rag_program = "rag";

/* The questions file and the question being answered (-1: none): errors
 * while answering it name its line (rag_at_question). */
static const char *rag_questions_path;
static int rag_question = -1;

static void rag_unit_begin(void);
/* Also the start of the question's unit under --controller. */
static void rag_at_question(int q) {
  rag_question = q;
  rag_unit_begin();
}

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
  const char *qa_model; /* --qa-model A[,B...]: QA models' files instead of the defaults */
  const char *draft;    /* --draft: a draft model for the exact QA model (speculative decoding) */
  const char *controller; /* --controller: a frontier (pareto.csv) the runtime controller moves
                             a runtime-table build among, one question per unit */
  const char *target;     /* --target: its latency goal per question, in seconds */
  const char *percentile; /* --percentile: the fraction of questions to meet it (default: the
                             typical question; approx_controller.h) */
} rag_args;

/* The optional arguments a system takes (rag_parse_args's `extra`). */
enum { RAG_EMBEDDINGS = 1, RAG_EMBEDDER = 2 };

/* --passages FILE --questions FILE --models DIR --output FILE [--trace FILE]
 * [--qa-model FILE[,FILE...]] [--draft FILE], with --embeddings FILE where
 * `extra` has RAG_EMBEDDINGS and --embedder DIR where it has RAG_EMBEDDER
 * (both required then); anything else prints `usage` and exits with status 2. --qa-model
 * names the files of the models folder that are the QA models, instead of
 * RAG_MODEL_FILES (in order: the exact model, then the cheaper ones), to run
 * the same system over other models; --draft one that drafts for the exact model (greedy
 * speculative decoding: the same answers). */
static rag_args rag_parse_args(int argc, char **argv, const char *usage, int extra) {
  rag_args a = {0};
  for (int i = 1; i < argc; i++) {
    const char **slot = !strcmp(argv[i], "--passages")    ? &a.passages
                        : !strcmp(argv[i], "--questions") ? &a.questions
                        : !strcmp(argv[i], "--models")    ? &a.models
                        : !strcmp(argv[i], "--output")    ? &a.output
                        : !strcmp(argv[i], "--trace")     ? &a.trace
                        : !strcmp(argv[i], "--qa-model")  ? &a.qa_model
                        : !strcmp(argv[i], "--draft")     ? &a.draft
                        : !strcmp(argv[i], "--controller") ? &a.controller
                        : !strcmp(argv[i], "--target")    ? &a.target
                        : !strcmp(argv[i], "--percentile") ? &a.percentile
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
      ((extra & RAG_EMBEDDINGS) && !a.embeddings) || ((extra & RAG_EMBEDDER) && !a.embedder) ||
      !a.controller != !a.target || (a.percentile && !a.controller)) {
    fprintf(stderr, "usage: %s [--controller FRONTIER.csv --target SECONDS [--percentile P]]\n",
            usage);
    exit(2);
  }
  return a;
}

/* ---- Runtime adaptation (--controller, --target) -------------------------- */

/* The runtime controller over the frontier (approx_controller.h), one
 * question per unit: each question runs on the point it chooses, and a
 * line per question on stderr says which ("rag: unit Q point P seconds T
 * missed M", flushed: benchmarks/runtime/compound_load.py reads them as
 * they come). Only a runtime-table build has parameters to move. */
static approx_ctl *rag_ctl;
static int rag_ctl_point;
static struct timespec rag_ctl_started;

static void rag_start_controller(const rag_args *a) {
  if (!a->controller)
    return;
  char *end;
  approx_ctl_goal goal = approx_ctl_defaults();
  goal.target_seconds = strtod(a->target, &end);
  if (end == a->target || *end)
    die("--target '%s': give the latency goal per question in seconds", a->target);
  if (a->percentile) {
    goal.percentile = strtod(a->percentile, &end);
    if (end == a->percentile || *end)
      die("--percentile '%s': give the fraction of questions to meet the target, in (0, 1)",
          a->percentile);
  }
  rag_ctl = approx_ctl_open(a->controller, &goal);
  if (!rag_ctl)
    die("%s", approx_rt_last_error());
}

static void rag_unit_begin(void) {
  if (!rag_ctl)
    return;
  rag_ctl_point = approx_ctl_begin(rag_ctl);
  clock_gettime(CLOCK_MONOTONIC, &rag_ctl_started);
}

static void rag_unit_end(int q) {
  if (!rag_ctl)
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double t = (double)(now.tv_sec - rag_ctl_started.tv_sec) +
             1e-9 * (double)(now.tv_nsec - rag_ctl_started.tv_nsec);
  int missed = approx_ctl_end_with(rag_ctl, t);
  fprintf(stderr, "rag: unit %d point %d seconds %.3f missed %d\n", q, rag_ctl_point, t, missed);
  fflush(stderr);
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

/* The QA models, exact first (file names in the models folder): the
 * instruct models of ml/models-instruct.txt (Qwen2.5-Coder 1.5B, the exact
 * model: the most accurate in benchmarks/results/compound/premise.md, then
 * 0.5B), Gemma 3 270M and its Q4_0 requantisation (scripts/models.sh), and
 * SmolLM2-135M-Instruct. --qa-model replaces them (the tests run the small
 * models: Gemma 3 270M, its requantisations and SmolLM2). */
enum { RAG_NMODELS = 5, RAG_ANSWER_MAX = 1024 };
static const char *RAG_MODEL_FILES[RAG_NMODELS] = {
    "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    "gemma-3-270m-q4_k_m.gguf", "gemma-3-270m-q4_0.gguf", "smollm2-135m-instruct-q4_1.gguf"};
static allm_model *rag_models[RAG_NMODELS];
static int rag_nmodels = RAG_NMODELS; /* loaded: models 0 .. rag_nmodels - 1 */
static allm_model *rag_draft; /* --draft: drafts for model 0, or NULL */
static int rag_model_uses[RAG_NMODELS];
static double rag_model_seconds[RAG_NMODELS]; /* LLM time per model (memoised calls: as measured) */
static allm_stats rag_last_stats;
static int rag_last_in_passages; /* 1: the last answer occurs in its prompt's passages */
/* 1: the last answer reached its token cap (it may have been cut; one that
 * ended before it, at an end token or a stop string, is what greedy decoding
 * with a larger cap would also have written). */
static int rag_last_capped;

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

/* --qa-model A[,B...]: files of the models folder that are the QA models
 * 0, 1, ... in order (the exact model first), instead of the defaults; the
 * models it does not name are not loaded, and a configuration that selects
 * one is an error (rag_generate). */
static void rag_replace_models(const char *list) {
  char *copy = strdup(list), *save = 0;
  int m = 0;
  for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(0, ",", &save)) {
    if (m == RAG_NMODELS)
      die("--qa-model names more than the %d QA models ('%s')", RAG_NMODELS, list);
    RAG_MODEL_FILES[m++] = f; /* `copy` lives as long as the program */
  }
  if (m == 0)
    die("--qa-model names no model");
  rag_nmodels = m;
}

static void rag_load_models(const rag_args *a) {
  const char *dir = a->models;
  if (a->qa_model)
    rag_replace_models(a->qa_model);
  for (int m = 0; m < rag_nmodels; m++)
    rag_models[m] = rag_load_model(dir, RAG_MODEL_FILES[m], 0);
  if (a->draft)
    rag_draft = rag_load_model(dir, a->draft, 0);
  rag_start_controller(a);
}

/* Whether `answer`, trimmed of spaces and punctuation at both ends, occurs
 * case-insensitively in the passages of `prompt` (after its first
 * `prefix_bytes` bytes, before its last "Question:"). An empty answer does
 * not. */
static int rag_in_passages(const char *prompt, int prefix_bytes, const char *answer) {
  const char *a = answer, *e = answer + strlen(answer);
  while (a < e && (isspace((unsigned char)*a) || ispunct((unsigned char)*a)))
    a++;
  while (e > a && (isspace((unsigned char)e[-1]) || ispunct((unsigned char)e[-1])))
    e--;
  size_t n = (size_t)(e - a);
  const char *from = prompt + prefix_bytes, *to = from;
  for (const char *q = from; (q = strstr(q, "Question:")) != 0; q++)
    to = q;
  if (n == 0 || (size_t)(to - from) < n)
    return 0;
  for (const char *p = from; p + n <= to; p++)
    if (!strncasecmp(p, a, n))
      return 1;
  return 0;
}

/* Token counts and memoised calls of the run so far. */
static long rag_prompt_tokens, rag_reused_tokens, rag_generated_tokens, rag_drafted_tokens,
    rag_accepted_tokens;
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
  g.draft = m == 0 && !grammar ? rag_draft : 0; /* speculative decoding is greedy, no grammar */
  if (m >= rag_nmodels)
    die("the configuration selects QA model %d, but --qa-model names %d model(s) (0 to %d)", m,
        rag_nmodels, rag_nmodels - 1);
  rag_model_uses[m]++;
  rag_calls++;
  if (allm_generate(rag_models[m], prompt, &g, out, cap, &rag_last_stats) < 0)
    die("generation failed: %s", allm_last_error());
  rag_model_seconds[m] += rag_last_stats.prompt_seconds + rag_last_stats.generate_seconds;
  rag_prompt_tokens += rag_last_stats.prompt_tokens;
  rag_reused_tokens += rag_last_stats.reused_tokens;
  rag_generated_tokens += rag_last_stats.generated_tokens;
  rag_drafted_tokens += rag_last_stats.drafted_tokens;
  rag_accepted_tokens += rag_last_stats.accepted_tokens;
  rag_cached += rag_last_stats.cached;
  rag_last_in_passages = rag_in_passages(prompt, prefix_bytes, out);
  rag_last_capped = rag_last_stats.generated_tokens >= max_tokens;
}

/* Answers `prompt` (whose first `prefix_bytes` bytes are shared) with QA
 * model `m`, at most answer_tokens() tokens. Returns m. */
static int generate_with(int m, const char *prompt, int prefix_bytes, char *out, int cap) {
  rag_generate(m, prompt, prefix_bytes, answer_tokens(), 0, out, cap);
  return m;
}

/* ---- Cascade ------------------------------------------------------------ */

/* A system's answer function is a safety contract (try-check-recover, as
 * AutoMix and FrugalGPT cascade models): an answer by a cheaper model is
 * checked by rag_accept and, when rejected, answered again by the exact model
 * (rag_escalate). What the check saw of the last answer, for the trace and the
 * checker study (benchmarks/compound/checkers.py): */
static struct {
  int checked;     /* 1: the last answer was checked (a cheaper model's) */
  double p1;       /* its first token's probability */
  int in_passages; /* 1: it occurs in the prompt's passages */
  int escalated;   /* 1: rejected, answered again by the exact model */
  int cheap;       /* the model whose answer was checked */
} rag_check;
static int rag_escalations;

/* The checker of the last answer, by model m (m = 0: the exact model's,
 * always final): accepted when its first token's probability is at least
 * `min_prob` and, where `need_passage`, it occurs in its prompt's passages.
 * min_prob 0 without need_passage accepts every answer (plain model
 * selection). */
static bool rag_accept(int m, double min_prob, int need_passage) {
  rag_check.checked = m != 0;
  rag_check.escalated = 0;
  if (m == 0)
    return true;
  rag_check.cheap = m;
  rag_check.p1 = rag_last_stats.first_token_prob;
  rag_check.in_passages = rag_last_in_passages;
  return rag_check.p1 >= min_prob && (!need_passage || rag_check.in_passages);
}

/* The recovery: the exact model answers `prompt` (the cheaper answer was
 * rejected). Returns 0, the model used. */
static int rag_escalate(const char *prompt, int prefix_bytes, char *out, int cap) {
  rag_check.escalated = 1;
  rag_escalations++;
  return generate_with(0, prompt, prefix_bytes, out, cap);
}

/* ---- Output -------------------------------------------------------------- */

/* Records question q's answer (by model m, the last generation): the answer
 * as one line of the answers file, the counts, and where `trace` is open a
 * trace line (state, model, tokens, top passage, the cascade's check where
 * one was made, `extra` fields, answer). */
static void rag_record(FILE *out, FILE *trace, int q, int state, int m, int top,
                       const char *extra, char *answer) {
  for (char *c = answer; *c; c++)
    if (*c == '\n' || *c == '\r' || *c == '\t')
      *c = ' ';
  fprintf(out, "%s\n", answer);
  if (trace) {
    fprintf(trace,
            "%d\tconfidence=%d\tmodel=%s\tprompt_tokens=%d\tgenerated=%d\tcapped=%d\ttop=%d"
            "\tp1=%.4f\tin_passages=%d",
            q, state, RAG_MODEL_FILES[m], rag_last_stats.prompt_tokens,
            rag_last_stats.generated_tokens, rag_last_capped, top,
            rag_last_stats.first_token_prob, rag_last_in_passages);
    if (rag_check.checked)
      fprintf(trace, "\tchecked=%s\tchecked_p1=%.4f\tchecked_in_passages=%d\tescalated=%d",
              RAG_MODEL_FILES[rag_check.cheap], rag_check.p1, rag_check.in_passages,
              rag_check.escalated);
    fprintf(trace, "%s%s\t%s\n", extra ? "\t" : "", extra ? extra : "", answer);
  }
  rag_check.checked = rag_check.escalated = 0;
  rag_unit_end(q);
}

/* Closes the output files; the end of the summary line on stderr (tokens,
 * model use, LLM seconds per model) and the time on stdout: `wall` plus the memoised calls'
 * replayed time. */
static void rag_finish(FILE *out, FILE *trace, const rag_args *a, double wall) {
  char why[APPROX_WHY_SIZE];
  (void)out;
  rag_question = -1;
  if (approx_output_commit(&rag_out, why) != 0)
    die("%s", why);
  if (trace && approx_output_commit(&rag_trace, why) != 0)
    die("%s", why);
  fprintf(stderr,
          " (replayed %+.3f s, %d of %d LLM calls memoised); prompt tokens %ld (%ld of them a "
          "reused shared prefix), generated %ld; escalations %d; models",
          allm_time_adjustment(), rag_cached, rag_calls, rag_prompt_tokens, rag_reused_tokens,
          rag_generated_tokens, rag_escalations);
  for (int m = 0; m < rag_nmodels; m++)
    fprintf(stderr, " %s=%d", RAG_MODEL_FILES[m], rag_model_uses[m]);
  if (rag_draft)
    fprintf(stderr, "; draft %s: %ld tokens drafted, %ld accepted", a->draft, rag_drafted_tokens,
            rag_accepted_tokens);
  fprintf(stderr, "; LLM seconds by model");
  for (int m = 0; m < rag_nmodels; m++)
    fprintf(stderr, " %s=%.3f", RAG_MODEL_FILES[m], rag_model_seconds[m]);
  fputc('\n', stderr);
  printf("%.6f\n", wall + allm_time_adjustment());
  for (int m = 0; m < RAG_NMODELS; m++)
    allm_free(rag_models[m]);
  allm_free(rag_draft);
  approx_ctl_close(rag_ctl);
}

#endif
