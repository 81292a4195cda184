/* kb: cosine-similarity search over document embeddings stored as text
 * (one document per line: its topic, then 64 numbers). The kernel parses
 * the embeddings, groups the documents by topic, and for each query ranks
 * every document, keeping the top 100. QoS: mean RBO (p = 0.95) of the
 * rankings (approx-qos rbo-mean).
 *
 * Knobs:
 *  - parse_row:     embedding parsing: reduced-precision number parser
 *                   (1 = three decimals, 2 = two decimals);
 *  - score_topic:   document skipping: score every k-th document of a
 *                   topic; state: the topic's rank for this query (by the
 *                   similarity of the query to the topic's centroid), so
 *                   distant topics are sampled most. */
#include "../common/bench.h"
#include "../common/number.h"

enum { DIM = 64, TOPICS = 64, TOP = 100 };

// @approx:static_transform transform_type=func_substitute callee=parse_number knob_val=0 decision_values=[0, 1, 2]
const char *parse_row(const char *s, int *topic, float *out) {
  *topic = (int)strtol(s, (char **)&s, 10);
  for (int j = 0; j < DIM; j++) {
    while (*s == ' ')
      s++;
    out[j] = (float)parse_number(s, &s);
  }
  return s + 1; /* past the newline */
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

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sizes[] = {500, 10000, 90000}, queries[] = {10, 50, 100};
  int n = sizes[a.size], nq = queries[a.size];
  bench_seed(2, a.instance);
  /* Topics: random directions; documents: a topic plus noise, unit norm,
   * written as text with 6 decimals. */
  float *centers = malloc(sizeof(float) * TOPICS * DIM);
  for (int i = 0; i < TOPICS * DIM; i++)
    centers[i] = (float)bench_normal();
  char *text = malloc((size_t)n * (DIM * 11 + 8) + 1), *p = text;
  float v[DIM];
  for (int d = 0; d < n; d++) {
    int t = (int)(bench_u64() % TOPICS);
    double norm = 0;
    for (int j = 0; j < DIM; j++) {
      v[j] = centers[t * DIM + j] + 0.9f * (float)bench_normal();
      norm += v[j] * v[j];
    }
    p += sprintf(p, "%d", t);
    for (int j = 0; j < DIM; j++)
      p += sprintf(p, " %.6f", v[j] / sqrt(norm));
    *p++ = '\n';
  }
  *p = 0;
  float *queries_v = malloc(sizeof(float) * nq * DIM);
  for (int q = 0; q < nq; q++) {
    int t = (int)(bench_u64() % TOPICS);
    for (int j = 0; j < DIM; j++)
      queries_v[q * DIM + j] = centers[t * DIM + j] + (float)bench_normal();
  }

  float *emb = malloc(sizeof(float) * (long)n * DIM);
  int *topic = malloc(sizeof(int) * n), *members = malloc(sizeof(int) * n);
  int count[TOPICS], first[TOPICS + 1], rank[TOPICS];
  float *centroid = calloc(TOPICS * DIM, sizeof(float));
  double *score = malloc(sizeof(double) * n), csim[TOPICS];
  int (*top)[TOP] = malloc(sizeof *top * nq);

  double t0 = bench_now();
  const char *s = text;
  for (int d = 0; d < n; d++)
    s = parse_row(s, &topic[d], emb + (long)d * DIM);
  /* Group by topic; topic centroids. */
  memset(count, 0, sizeof count);
  for (int d = 0; d < n; d++)
    count[topic[d]]++;
  first[0] = 0;
  for (int t = 0; t < TOPICS; t++)
    first[t + 1] = first[t] + count[t];
  memset(count, 0, sizeof count);
  for (int d = 0; d < n; d++) {
    int t = topic[d];
    members[first[t] + count[t]++] = d;
    for (int j = 0; j < DIM; j++)
      centroid[t * DIM + j] += emb[(long)d * DIM + j];
  }
  for (int q = 0; q < nq; q++) {
    const float *qv = queries_v + q * DIM;
    float qn = sqrtf(dot(qv, qv));
    for (int t = 0; t < TOPICS; t++) {
      float cn = sqrtf(dot(centroid + t * DIM, centroid + t * DIM));
      csim[t] = cn > 0 ? dot(qv, centroid + t * DIM) / (qn * cn) : -2;
    }
    for (int t = 0; t < TOPICS; t++) { /* rank of each topic, 0 = closest */
      rank[t] = 0;
      for (int u = 0; u < TOPICS; u++)
        rank[t] += csim[u] > csim[t] || (csim[u] == csim[t] && u < t);
    }
    for (int d = 0; d < n; d++)
      score[d] = -2;
    for (int t = 0; t < TOPICS; t++)
      score_topic(qv, emb, members + first[t], first[t + 1] - first[t], score,
                  rank[t]);
    bench_top_k(score, n, TOP, top[q]);
  }
  double t = bench_now() - t0;

  bench_finish_rankings(a.output, &top[0][0], nq, TOP, t);
  return 0;
}
