/* LLM + tools: questions answered by a small LLM that can call the project's
 * kernels as tools. For each question:
 *   1. triage: an LLM call constrained by a grammar to one tool name
 *      (search: dense retrieval over the Wikipedia passages; kmeans; graph:
 *      pagerank; particles: lavaMD) or "none"; the probability of its first
 *      token is the triage confidence;
 *   2. the tool runs on the data the question names (the kernels' seeded
 *      inputs: "kmeans dataset 7" is instance 7 of the kmeans input at small
 *      size; retrieval embeds the question and finds its passages);
 *   3. QA: an LLM answers from the tool's output (the facts); a summary
 *      step before it (an LLM condenses the output into one sentence) is a
 *      knob, off in the exact system: with the instruct models it bought no
 *      accuracy and cost half the time (docs/compound.md, "LLM + tools").
 * The exact system is triage and QA by the most accurate model.
 * A tool that fails (no data of that number) or an unknown tool name is not
 * an error: the question is answered without a tool's facts, and the trace
 * says why.
 *
 *   llm_tools --passages FILE --embeddings FILE --questions FILE --models DIR
 *             --output FILE [--trace FILE] [--qa-model FILE[,FILE...]] [--draft FILE] [--tool NAME]
 *   llm_tools --facts N
 *
 * Questions: question<TAB>kind<TAB>answer... (benchmarks/compound/
 * tool_questions.py; the kind and answers are for the scorer, approx-qos
 * graded-accuracy). Writes one answer per question to --output and prints
 * the wall time of the question set in seconds on stdout (model loading and
 * the generation of the tools' inputs excluded; memoised generations charged
 * the time they took). --tool NAME skips the triage and uses that tool for
 * every question. --facts N prints, for the inputs 0..N-1 of each tool, the
 * facts the tool questions ask about (tool<TAB>input<TAB>fact<TAB>value);
 * from the exact build they are the questions' reference answers.
 *
 * Knobs: the tools' own (kb retrieval: parse_row, score_topic; kmeans:
 * assign, update, lloyd's iterations; pagerank: pull, update_node,
 * pagerank's iterations; lavaMD: self_box, home_box; read from their
 * headers) and
 *  - triage:          triage model (the QA models of common/rag.h, the
 *                     exact one first), or no LLM: a semantic router (the
 *                     nearest triage example by embedding);
 *  - passage_words:   retrieval output: 60 words per passage (exact), 40, 25;
 *  - summarize:       no summary (exact: the tool's output is the QA step's
 *                     facts), or a summary by one of the QA models (the
 *                     exact one first); state: the triage confidence;
 *  - summary_tokens:  maximum summary tokens (where a summary is made): 40,
 *                     28, 20;
 *  - answer:          QA model; state: the triage confidence. */
#include "../common/rag.h"
#include "../common/kb_retrieval.h"
#include "../../kmeans/kmeans.h"
#include "../../lavamd/lavamd.h"
#include "../../pagerank/pagerank.h"

#include <ctype.h>
#include <math.h>

enum { PASSAGES = 2, MAX_INPUTS = 64, SIZE = 1 /* small */, TEXT_MAX = 1 << 14 };

/* ---- Tools --------------------------------------------------------------- */

/* The tools by the names the triage step knows them by: search (dense
 * retrieval over the passages), kmeans, graph (pagerank), particles (lavaMD). */
typedef enum { TOOL_NONE, TOOL_RETRIEVAL, TOOL_KMEANS, TOOL_PAGERANK, TOOL_LAVAMD, NTOOLS } tool;
static const char *const TOOL_NAMES[NTOOLS] = {"none", "search", "kmeans", "graph", "particles"};

/* The tool of a name; -1 if there is none. */
static int tool_of(const char *name) {
  for (int t = 0; t < NTOOLS; t++)
    if (!strcmp(name, TOOL_NAMES[t]))
      return t;
  return -1;
}

/* The tools' inputs, generated when first named (their generation is not
 * part of the measured time). */
static struct {
  double *pts, cent[K * D];
  int n;
} kmeans_in[MAX_INPUTS];
static pr_graph pagerank_in[MAX_INPUTS];
static md_system lavamd_in[MAX_INPUTS];
static double t_inputs; /* seconds spent generating inputs */

/* The input number a question names: the first whole number in it; -1 if
 * none. */
static int input_of(const char *question) {
  for (const char *p = question; *p; p++)
    if (isdigit((unsigned char)*p))
      return (int)strtol(p, 0, 10);
  return -1;
}

/* What a tool found, as text for the summary and as facts. */
typedef struct {
  char text[TEXT_MAX];
  int ok;
} tool_output;

static void kmeans_tool(int i, tool_output *o, FILE *facts) {
  double t0 = bench_now();
  if (!kmeans_in[i].pts)
    kmeans_in[i].pts = kmeans_generate(SIZE, i, &kmeans_in[i].n, kmeans_in[i].cent);
  t_inputs += bench_now() - t0;
  int n = kmeans_in[i].n, *label = calloc(n, sizeof(int)), size[K] = {0};
  double cent[K * D];
  memcpy(cent, kmeans_in[i].cent, sizeof cent);
  lloyd(kmeans_in[i].pts, n, cent, label, kmeans_size_class(n));
  for (int p = 0; p < n; p++)
    size[label[p]]++;
  free(label);
  int big = 0, small = 0;
  for (int c = 1; c < K; c++) {
    big = size[c] > size[big] ? c : big;
    small = size[c] < size[small] ? c : small;
  }
  int at = snprintf(o->text, TEXT_MAX,
                    "kmeans dataset %d: the largest cluster has %d points; the smallest cluster "
                    "has %d points; cluster sizes",
                    i, size[big], size[small]);
  for (int c = 0; c < K; c++)
    at += snprintf(o->text + at, TEXT_MAX - at, "%s %d", c ? "," : "", size[c]);
  snprintf(o->text + at, TEXT_MAX - at, "; %d points in all.", n);
  if (facts)
    fprintf(facts, "kmeans\t%d\tlargest\t%d\nkmeans\t%d\tsmallest\t%d\n", i, size[big], i,
            size[small]);
}

static void pagerank_tool(int i, tool_output *o, FILE *facts) {
  double t0 = bench_now();
  if (!pagerank_in[i].off)
    pagerank_in[i] = pagerank_generate(SIZE, i);
  t_inputs += bench_now() - t0;
  pr_state s = pagerank_state(pagerank_in[i].n);
  pagerank_run(&pagerank_in[i], &s);
  int top[5];
  bench_top_k(s.rank, pagerank_in[i].n, 5, top);
  int at = snprintf(o->text, TEXT_MAX,
                    "PageRank of graph %d: the highest is node %d; the three highest are nodes "
                    "%d, %d and %d; the five highest:",
                    i, top[0], top[0], top[1], top[2]);
  for (int k = 0; k < 5; k++)
    at += snprintf(o->text + at, TEXT_MAX - at, "%s node %d (%.5f)", k ? "," : "", top[k],
                   s.rank[top[k]]);
  snprintf(o->text + at, TEXT_MAX - at, "; %d nodes in all.", pagerank_in[i].n);
  if (facts)
    fprintf(facts, "pagerank\t%d\ttop1\t%d\npagerank\t%d\ttop3\t%d %d %d\n", i, top[0], i, top[0],
            top[1], top[2]);
  pagerank_state_free(&s);
}

static void lavamd_tool(int i, tool_output *o, FILE *facts) {
  double t0 = bench_now();
  if (!lavamd_in[i].r)
    lavamd_in[i] = lavamd_generate(SIZE, i);
  t_inputs += bench_now() - t0;
  md_system *m = &lavamd_in[i];
  long n = (long)m->nb * m->nb * m->nb * m->np;
  vec4 *f = calloc(n, sizeof(vec4));
  lavamd(m->r, m->q, m->nb, m->np, f);
  double total = 0;
  long best = 0;
  for (long p = 0; p < n; p++) {
    total += f[p].v;
    best = f[p].v > f[best].v ? p : best;
  }
  free(f);
  snprintf(o->text, TEXT_MAX,
           "lavaMD particle system %d: the total potential energy is %.1f; the largest "
           "potential is that of particle %ld; %ld particles in all.",
           i, total, best, n);
  if (facts)
    fprintf(facts, "lavamd\t%d\ttotal\t%.1f\nlavamd\t%d\tlargest\t%ld\n", i, total, i, best);
}

static allm_model *embedder;
static kb_index *index_of_passages;

/* The embedding of `question` (the last one is kept: the semantic router
 * and the search tool embed the same question). */
static void embed_question(const char *question, float *qv) {
  static char last[RAG_ANSWER_MAX * 4];
  static float last_v[DIM];
  if (strcmp(question, last) != 0 || !last[0]) {
    if (allm_embed(embedder, question, last_v, DIM) < 0)
      die("cannot embed the question: %s", allm_last_error());
    snprintf(last, sizeof last, "%s", question);
  }
  memcpy(qv, last_v, sizeof last_v);
}

static void retrieval_tool(const char *question, tool_output *o) {
  float qv[DIM];
  embed_question(question, qv);
  int top[PASSAGES], scored;
  kb_search(index_of_passages, qv, PASSAGES, top, &scored);
  o->text[0] = 0;
  int at = 0;
  for (int k = 0; k < PASSAGES && top[k] >= 0; k++)
    at = append_passage(o->text, at, TEXT_MAX, k + 1, top[k]);
  if (at > 0 && o->text[at - 1] == '\n') /* one line for the prompt */
    o->text[at - 1] = 0;
  for (char *c = o->text; *c; c++)
    if (*c == '\n')
      *c = ' ';
}

/* Runs tool `t` for `question` into `o`; o->ok = 0 (and the text says why)
 * when it cannot. */
static void run_tool(int t, const char *question, tool_output *o) {
  o->ok = 1;
  if (t == TOOL_NONE) {
    o->ok = 0;
    snprintf(o->text, TEXT_MAX, "no tool");
    return;
  }
  if (t == TOOL_RETRIEVAL) {
    retrieval_tool(question, o);
    return;
  }
  int i = input_of(question);
  if (i < 0 || i >= MAX_INPUTS) {
    o->ok = 0;
    snprintf(o->text, TEXT_MAX, "the %s tool failed: the question names no input 0..%d",
             TOOL_NAMES[t], MAX_INPUTS - 1);
    return;
  }
  if (t == TOOL_KMEANS)
    kmeans_tool(i, o, 0);
  else if (t == TOOL_PAGERANK)
    pagerank_tool(i, o, 0);
  else
    lavamd_tool(i, o, 0);
}

/* ---- The LLM steps ---------------------------------------------------------- */

/* Few-shot: a 270M base model follows examples, and picks single-token
 * names far more reliably than kernel names (measured: 10 of 10 questions
 * routed right with these names and examples, 3 of 10 with "retrieval",
 * "pagerank" and "lavamd"). The semantic router matches a question against
 * the same examples and a few more general-knowledge ones (a router needs
 * more than three examples of its catch-all route; a base model given them
 * as shots was not measured to need them). */
static const char TRIAGE_INSTRUCTION[] =
    "Questions about kmeans datasets go to kmeans, about graphs and PageRank to graph, about "
    "particle systems to particles, and everything else to search.\n\n";
enum { NEXAMPLES = 17, NSHOTS = 9 /* the first NSHOTS are the LLM's shots */ };
static const struct {
  const char *question;
  tool tool;
} TRIAGE_EXAMPLES[NEXAMPLES] = {
    {"who painted the mona lisa", TOOL_RETRIEVAL},
    {"How many points are in the largest cluster of kmeans dataset 41?", TOOL_KMEANS},
    {"Which node has the highest PageRank in graph 52?", TOOL_PAGERANK},
    {"What is the total potential energy of particle system 63?", TOOL_LAVAMD},
    {"when did the berlin wall fall", TOOL_RETRIEVAL},
    {"Which particle has the largest potential in particle system 17?", TOOL_LAVAMD},
    {"How many points are in the smallest cluster of kmeans dataset 8?", TOOL_KMEANS},
    {"Which three nodes have the highest PageRank in graph 30?", TOOL_PAGERANK},
    {"who is the president of france", TOOL_RETRIEVAL},
    {"how many players are on a basketball team", TOOL_RETRIEVAL},
    {"who plays the main character in the movie titanic", TOOL_RETRIEVAL},
    {"who discovered the electron and the proton", TOOL_RETRIEVAL},
    {"what is the highest mountain in the world", TOOL_RETRIEVAL},
    {"how many episodes are in the first season of friends", TOOL_RETRIEVAL},
    {"which country has the largest population", TOOL_RETRIEVAL},
    {"where is the largest particle accelerator located", TOOL_RETRIEVAL},
    {"who sang the theme song of the tv series", TOOL_RETRIEVAL},
};
static const char TRIAGE_GRAMMAR[] =
    "root ::= \" search\" | \" kmeans\" | \" graph\" | \" particles\" | \" none\"";

/* Triage by LLM `m`: the tool name (after a space) into `out`; the
 * probability of its first token into *confidence. */
static int triage_with(int m, const char *question, char *out, int cap, double *confidence) {
  char prompt[4096];
  int at = snprintf(prompt, sizeof prompt, "%s", TRIAGE_INSTRUCTION);
  for (int e = 0; e < NSHOTS; e++)
    at += snprintf(prompt + at, sizeof prompt - at, "Question: %s\nTool: %s\n",
                   TRIAGE_EXAMPLES[e].question, TOOL_NAMES[TRIAGE_EXAMPLES[e].tool]);
  snprintf(prompt + at, sizeof prompt - at, "Question: %s\nTool:", question);
  rag_generate(m, prompt, at, 4, TRIAGE_GRAMMAR, out, cap); /* instruction and shots shared */
  *confidence = rag_last_stats.first_token_prob;
  return m;
}

static float triage_example_vectors[NEXAMPLES][DIM];

/* Embeds the triage examples (with the models, before the clock starts). */
static void embed_triage_examples(void) {
  for (int e = 0; e < NEXAMPLES; e++)
    if (allm_embed(embedder, TRIAGE_EXAMPLES[e].question, triage_example_vectors[e], DIM) < 0)
      die("cannot embed a triage example: %s", allm_last_error());
}

/* Triage without an LLM (a semantic router): the tool of the triage example
 * whose embedding is closest to the question's (the embedder the search
 * tool uses; the question's embedding is reused by it). Confidence: the
 * softmax, at temperature 0.05, of each tool's closest cosine, at the tool
 * chosen. */
static int triage_by_embedding(const char *question, char *out, int cap, double *confidence) {
  float qv[DIM];
  embed_question(question, qv);
  double best[NTOOLS];
  for (int t = 0; t < NTOOLS; t++)
    best[t] = -2;
  for (int e = 0; e < NEXAMPLES; e++) {
    double dot = 0;
    for (int j = 0; j < DIM; j++)
      dot += (double)qv[j] * triage_example_vectors[e][j]; /* both L2-normalised */
    tool t = TRIAGE_EXAMPLES[e].tool;
    best[t] = dot > best[t] ? dot : best[t];
  }
  int pick = TOOL_RETRIEVAL;
  for (int t = 0; t < NTOOLS; t++)
    pick = best[t] > best[pick] ? t : pick;
  double sum = 0;
  for (int t = 0; t < NTOOLS; t++)
    sum += best[t] > -2 ? exp((best[t] - best[pick]) / 0.05) : 0;
  *confidence = 1 / sum;
  snprintf(out, cap, " %s", TOOL_NAMES[pick]);
  return 5;
}

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2, 3, 4, 5]
int triage(const char *question, char *out, int cap, double *confidence) {
  return triage_with(0, question, out, cap, confidence);
}
int approx_triage_1(const char *question, char *out, int cap, double *confidence) {
  return triage_with(1, question, out, cap, confidence);
}
int approx_triage_2(const char *question, char *out, int cap, double *confidence) {
  return triage_with(2, question, out, cap, confidence);
}
int approx_triage_3(const char *question, char *out, int cap, double *confidence) {
  return triage_with(3, question, out, cap, confidence);
}
int approx_triage_4(const char *question, char *out, int cap, double *confidence) {
  return triage_with(4, question, out, cap, confidence);
}
int approx_triage_5(const char *question, char *out, int cap, double *confidence) {
  return triage_by_embedding(question, out, cap, confidence);
}

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2]
int passage_words(void) { return 60; }
int approx_passage_words_1(void) { return 40; }
int approx_passage_words_2(void) { return 25; }

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2]
int summary_tokens(void) { return 40; }
int approx_summary_tokens_1(void) { return 28; }
int approx_summary_tokens_2(void) { return 20; }

static const char SUMMARY_PROMPT[] =
    "Condense the tool output into one sentence that answers the question.\n\n"
    "Question: How many points are in the smallest cluster of kmeans dataset 41?\n"
    "Tool output: kmeans dataset 41: the largest cluster has 20480 points; the smallest cluster "
    "has 19533 points; cluster sizes 20110, 19876, 20480, 19533, 20011, 19960, 20023, 20007, "
    "20000, 20000; 200000 points in all.\n"
    "Summary: The smallest cluster of kmeans dataset 41 has 19533 points.\n\n"
    "Question: Which three nodes have the highest PageRank in graph 52?\n"
    "Tool output: PageRank of graph 52: the highest is node 5512; the three highest are nodes "
    "5512, 80 and 1234; the five highest: node 5512 (0.00213), node 80 (0.00190), node 1234 "
    "(0.00185), node 7 (0.00170), node 99 (0.00160); 200000 nodes in all.\n"
    "Summary: The three nodes with the highest PageRank in graph 52 are 5512, 80 and 1234.\n\n"
    "Question: when was the eiffel tower completed\n"
    "Tool output: [1] Eiffel Tower: The Eiffel Tower is a wrought-iron lattice tower on the "
    "Champ de Mars in Paris, France. It was completed in 1889.\n"
    "Summary: The Eiffel Tower was completed in 1889.\n\n"
    "Question: %s\nTool output: %s\nSummary:";

/* A summary of `output` by QA model `m`. Returns m. */
static int summarize_with(int m, const char *question, const char *output, char *out, int cap) {
  static char prompt[TEXT_MAX + 4096];
  snprintf(prompt, sizeof prompt, SUMMARY_PROMPT, question, output);
  rag_generate(m, prompt, rag_fixed_part(SUMMARY_PROMPT), summary_tokens(), 0, out, cap);
  return m;
}

/* No summary: the tool's output itself, cut at a word boundary to fit, is the
 * QA step's facts. Returns -1 (no model). */
static int output_as_facts(const char *output, char *out, int cap) {
  int n = (int)strlen(output);
  if (n >= cap) {
    n = cap - 1;
    while (n > 0 && output[n] != ' ')
      n--;
  }
  memcpy(out, output, n);
  out[n] = 0;
  return -1;
}

// @approx:decision_tree {
//   transform_type: func_substitute
//   state_indices: [-1]
//   thresholds: [80]
//   thresholds_lower: [30]
//   thresholds_upper: [99]
//   decisions: [0, 0]
//   decision_values: [0, 1, 2, 3, 4, 5]
// }
int summarize(const char *question, const char *output, char *out, int cap, int confidence) {
  return output_as_facts(output, out, cap);
}
int approx_summarize_1(const char *question, const char *output, char *out, int cap,
                       int confidence) {
  return summarize_with(0, question, output, out, cap);
}
int approx_summarize_2(const char *question, const char *output, char *out, int cap,
                       int confidence) {
  return summarize_with(1, question, output, out, cap);
}
int approx_summarize_3(const char *question, const char *output, char *out, int cap,
                       int confidence) {
  return summarize_with(2, question, output, out, cap);
}
int approx_summarize_4(const char *question, const char *output, char *out, int cap,
                       int confidence) {
  return summarize_with(3, question, output, out, cap);
}
int approx_summarize_5(const char *question, const char *output, char *out, int cap,
                       int confidence) {
  return summarize_with(4, question, output, out, cap);
}

int answer_tokens(void) { return 16; }

static const char QA_PROMPT[] =
    "Answer the question with a short answer (a few words or a number) from the facts.\n\n"
    "Facts: The Eiffel Tower was completed in 1889.\n"
    "Question: when was the eiffel tower completed\nAnswer: 1889\n\n"
    "Facts: The node with the highest PageRank in graph 52 is node 5512.\n"
    "Question: Which node has the highest PageRank in graph 52?\nAnswer: 5512\n\n"
    "Facts: %s\nQuestion: %s\nAnswer:";

static int answer_with(int m, const char *question, const char *facts, char *out, int cap) {
  static char prompt[8192];
  snprintf(prompt, sizeof prompt, QA_PROMPT, facts, question);
  return generate_with(m, prompt, rag_fixed_part(QA_PROMPT), out, cap);
}

// @approx:decision_tree {
//   transform_type: func_substitute
//   state_indices: [-1]
//   thresholds: [80]
//   thresholds_lower: [30]
//   thresholds_upper: [99]
//   decisions: [0, 0]
//   decision_values: [0, 1, 2, 3, 4]
// }
int answer(const char *question, const char *facts, char *out, int cap, int confidence) {
  return answer_with(0, question, facts, out, cap);
}
int approx_answer_1(const char *question, const char *facts, char *out, int cap,
                    int confidence) {
  return answer_with(1, question, facts, out, cap);
}
int approx_answer_2(const char *question, const char *facts, char *out, int cap,
                    int confidence) {
  return answer_with(2, question, facts, out, cap);
}
int approx_answer_3(const char *question, const char *facts, char *out, int cap,
                    int confidence) {
  return answer_with(3, question, facts, out, cap);
}
int approx_answer_4(const char *question, const char *facts, char *out, int cap,
                    int confidence) {
  return answer_with(4, question, facts, out, cap);
}

/* ---- Driver ------------------------------------------------------------ */

/* --facts N: the tool questions' facts of inputs 0..N-1. */
static int print_facts(const char *n_text) {
  char *end;
  long n = strtol(n_text, &end, 10);
  if (*end || n < 1 || n > MAX_INPUTS)
    die("--facts takes a number of inputs in 1..%d (got '%s')", MAX_INPUTS, n_text);
  tool_output *o = malloc(sizeof *o);
  for (int i = 0; i < n; i++) {
    kmeans_tool(i, o, stdout);
    pagerank_tool(i, o, stdout);
    lavamd_tool(i, o, stdout);
  }
  free(o);
  return 0;
}

int main(int argc, char **argv) {
  rag_program = "llm_tools";
  if (argc == 3 && !strcmp(argv[1], "--facts"))
    return print_facts(argv[2]);
  /* --tool NAME: use that tool for every question (no triage). */
  const char *forced = 0;
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--tool")) {
      forced = argv[i + 1];
      for (int j = i; j + 2 <= argc; j++) /* argv[argc] is NULL */
        argv[j] = argv[j + 2];
      argc -= 2;
      break;
    }
  rag_args args = rag_parse_args(argc, argv,
                                 "llm_tools --passages FILE --embeddings FILE --questions FILE "
                                 "--models DIR --output FILE [--trace FILE]\n"
                                 "                 [--qa-model FILE[,FILE...]] [--draft FILE] "
                                 "[--tool NAME]\n"
                                 "       llm_tools --facts N",
                                 RAG_EMBEDDINGS);
  int ndocs = rag_read_passages(args.passages, PASSAGES);
  char **qlines;
  int nq = rag_read_questions(args.questions, &qlines);
  /* Models, loaded before the clock starts. */
  embedder = kb_load_embedder(args.models);
  embed_triage_examples();
  rag_load_models(&args);
  FILE *out, *trace;
  rag_open_outputs(&args, &out, &trace);

  tool_output *o = malloc(sizeof *o);
  char choice[64], facts_text[RAG_ANSWER_MAX], answer_text[RAG_ANSWER_MAX];
  int uses[NTOOLS] = {0}, failed = 0;
  double t0 = bench_now();
  kb_index index = kb_build(args.embeddings, ndocs);
  index_of_passages = &index;
  double t_parse = bench_now() - t0, t_llm = 0, t_tools = 0;

  for (int q = 0; q < nq; q++) {
    const char *question = qlines[q];
    rag_at_question(q);
    double ta = bench_now();
    int confidence = 100, t;
    if (forced) {
      snprintf(choice, sizeof choice, "%s", forced);
    } else {
      double p;
      triage(question, choice, sizeof choice, &p);
      confidence = p <= 0 ? 0 : p >= 1 ? 100 : (int)(100 * p);
    }
    const char *name = choice + strspn(choice, " ");
    t = tool_of(name);
    double tb = bench_now();
    if (t < 0) {
      /* The documented fallback: an unknown tool answers nothing. */
      fprintf(stderr, "llm_tools: warning: question %d: unknown tool '%s', answered without a "
                      "tool\n", q + 1, name);
      o->ok = 0;
      snprintf(o->text, TEXT_MAX, "unknown tool '%s'", name);
      t = TOOL_NONE;
    } else {
      run_tool(t, question, o);
    }
    double tc = bench_now();
    uses[t]++;
    failed += !o->ok && t != TOOL_NONE;
    if (o->ok)
      summarize(question, o->text, facts_text, sizeof facts_text, confidence);
    else
      snprintf(facts_text, sizeof facts_text, "(none)");
    const char *facts = facts_text + strspn(facts_text, " ");
    int m = answer(question, facts, answer_text, RAG_ANSWER_MAX, confidence);
    t_llm += (tb - ta) + (bench_now() - tc);
    t_tools += tc - tb;
    char extra[256];
    snprintf(extra, sizeof extra, "tool=%s\tok=%d\tfacts=%.150s", TOOL_NAMES[t], o->ok, facts);
    for (char *c = extra; *c; c++)
      if (*c == '\n')
        *c = ' ';
    rag_record(out, trace, q, confidence, m, -1, extra, answer_text);
  }
  double wall = bench_now() - t0 - t_inputs;
  fprintf(stderr,
          "llm_tools: %d questions, %d passages; parse %.3f s, tools %.3f s, llm %.3f s; "
          "tool inputs generated in %.3f s (not counted); tools used",
          nq, ndocs, t_parse, t_tools - t_inputs, t_llm, t_inputs);
  for (int t = 0; t < NTOOLS; t++)
    fprintf(stderr, " %s=%d", TOOL_NAMES[t], uses[t]);
  fprintf(stderr, ", %d failed", failed);
  rag_finish(out, trace, &args, wall);
  allm_free(embedder);
  return 0;
}
