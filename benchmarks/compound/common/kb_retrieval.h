/* Dense retrieval for the compound systems (header, plain C): the kb kernel
 * over the corpus's passage embeddings, with its knobs. The embeddings file
 * holds one line per passage: its topic, then DIM numbers
 * (benchmarks/compound/embed_corpus.py). Passages are grouped by topic; a
 * question visits the topics in order of their centroid's similarity.
 *
 * Knobs (approx-cc reads the annotations of the program's own headers):
 *  - parse_row:    reduced-precision parsing of the embeddings (3 or 2
 *                  fraction digits of 6);
 *  - score_topic:  document skipping: score every k-th passage of a topic;
 *                  state: the topic's rank for this question (by its
 *                  centroid's similarity), so distant topics are sampled
 *                  most.
 * Needs rag.h (die, read_all, rag_load_model) included first. */
#ifndef APPROX_KB_RETRIEVAL_H
#define APPROX_KB_RETRIEVAL_H

#include "../../common/bench.h"
#include "../../common/number.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DIM = 384, MAX_TOPICS = 1024 };
static const char EMBEDDING_MODEL[] = "all-minilm-l6-v2.gguf";

/* The sentence-embedding model of the models folder, checked to give DIM
 * values (loaded before the clock starts). */
static allm_model *kb_load_embedder(const char *models) {
  allm_model *m = rag_load_model(models, EMBEDDING_MODEL, 1);
  if (allm_n_embd(m) != DIM)
    die("%s/%s: embeddings of %d values, the system expects %d", models, EMBEDDING_MODEL,
        allm_n_embd(m), DIM);
  return m;
}

// @approx:static_transform transform_type=func_substitute callee=parse_number knob_val=0 decision_values=[0, 1, 2]
const char *parse_row(const char *s, int *topic, float *out) {
  *topic = (int)strtol(s, (char **)&s, 10);
  for (int j = 0; j < DIM; j++) {
    while (*s == ' ')
      s++;
    const char *at = s;
    out[j] = (float)parse_number(s, &s);
    if (s == at)
      return 0; /* not a number: a short or malformed row */
  }
  return s;
}

static float dot(const float *a, const float *b) {
  float s = 0;
  for (int j = 0; j < DIM; j++)
    s += a[j] * b[j];
  return s;
}

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [4, 16]
//   thresholds_lower: [1, 2]
//   thresholds_upper: [32, 63]
//   decisions: [0, 0, 0]
//   decision_values: [0, 2, 4, 8, 16]
// }
void score_topic(const float *q, const float *emb, const int *members,
                 int count, double *score, int rank) {
  for (int i = 0; i < count; i++) {
    int d = members[i];
    score[d] = dot(q, emb + (long)d * DIM);
  }
}

/* Parses the embeddings file (one row per passage, each ending in a
 * newline; a malformed row is a located error) into `emb` and `topic`; returns the number of topics. */
static int read_embeddings(const char *path, int ndocs, float *emb, int *topic) {
  long len;
  char *buf = read_all(path, &len);
  const char *s = buf;
  int ntopics = 0;
  for (int d = 0; d < ndocs; d++) {
    if (s >= buf + len) {
      fprintf(stderr, "%s: error: %d rows, the passages file has %d passages\n", path, d, ndocs);
      exit(1);
    }
    const char *end = parse_row(s, &topic[d], emb + (long)d * DIM);
    if (!end || *end != '\n' || topic[d] < 0 || topic[d] >= MAX_TOPICS) {
      fprintf(stderr, "%s:%d: error: expected a topic in [0, %d) and %d numbers\n", path, d + 1,
              MAX_TOPICS, DIM);
      exit(1);
    }
    if (topic[d] >= ntopics)
      ntopics = topic[d] + 1;
    s = end + 1;
  }
  if (s < buf + len) {
    fprintf(stderr, "%s:%d: error: more rows than the %d passages\n", path, ndocs + 1, ndocs);
    exit(1);
  }
  free(buf);
  return ntopics;
}

/* The parsed embeddings grouped by topic. */
typedef struct {
  int ndocs, ntopics;
  float *emb, *centroid, *cnorm;
  int *topic, *members, *first, *rank;
  double *csim, *score;
} kb_index;

/* Parses the embeddings of `ndocs` passages and groups them by topic. */
static kb_index kb_build(const char *path, int ndocs) {
  kb_index x;
  x.ndocs = ndocs;
  x.emb = malloc(sizeof(float) * (long)ndocs * DIM);
  x.topic = malloc(sizeof(int) * ndocs);
  x.members = malloc(sizeof(int) * ndocs);
  x.score = malloc(sizeof(double) * ndocs);
  int nt = x.ntopics = read_embeddings(path, ndocs, x.emb, x.topic);
  int *count = calloc(nt, sizeof(int));
  x.first = malloc(sizeof(int) * (nt + 1));
  x.rank = malloc(sizeof(int) * nt);
  x.centroid = calloc((long)nt * DIM, sizeof(float));
  x.cnorm = malloc(sizeof(float) * nt);
  x.csim = malloc(sizeof(double) * nt);
  for (int d = 0; d < ndocs; d++)
    count[x.topic[d]]++;
  x.first[0] = 0;
  for (int t = 0; t < nt; t++)
    x.first[t + 1] = x.first[t] + count[t];
  memset(count, 0, sizeof(int) * nt);
  for (int d = 0; d < ndocs; d++) {
    int t = x.topic[d];
    x.members[x.first[t] + count[t]++] = d;
    for (int j = 0; j < DIM; j++)
      x.centroid[(long)t * DIM + j] += x.emb[(long)d * DIM + j];
  }
  for (int t = 0; t < nt; t++)
    x.cnorm[t] = sqrtf(dot(x.centroid + (long)t * DIM, x.centroid + (long)t * DIM));
  free(count);
  return x;
}

/* The `k` passages most similar to the unit vector `qv` into `top` (best
 * first; -1 past the end). Returns the top passage's cosine similarity in
 * percent (0..100); `*scored` counts the passages scored. */
static int kb_search(kb_index *x, const float *qv, int k, int *top, int *scored) {
  int nt = x->ntopics;
  /* Topics by their centroid's similarity to the question (rank 0 = closest). */
  for (int t = 0; t < nt; t++)
    x->csim[t] = x->cnorm[t] > 0 ? dot(qv, x->centroid + (long)t * DIM) / x->cnorm[t] : -2;
  for (int t = 0; t < nt; t++) {
    x->rank[t] = 0;
    for (int u = 0; u < nt; u++)
      x->rank[t] += x->csim[u] > x->csim[t] || (x->csim[u] == x->csim[t] && u < t);
  }
  for (int d = 0; d < x->ndocs; d++)
    x->score[d] = -2;
  for (int t = 0; t < nt; t++)
    score_topic(qv, x->emb, x->members + x->first[t], x->first[t + 1] - x->first[t], x->score,
                x->rank[t]);
  bench_top_k(x->score, x->ndocs, k, top);
  *scored = 0;
  for (int d = 0; d < x->ndocs; d++)
    *scored += x->score[d] > -2;
  /* Embeddings are unit vectors: the score is the cosine similarity. */
  double best = top[0] >= 0 ? x->score[top[0]] : 0;
  return best <= 0 ? 0 : best >= 1 ? 100 : (int)(100 * best);
}

#endif
