/* bm25: Okapi BM25 (k1 = 1.5, b = 0.75) over a text corpus with a Zipf
 * vocabulary. The kernel tokenizes and indexes the raw text (term
 * frequencies, document frequencies, lengths), then ranks every document
 * for each query and keeps the top 100. QoS: mean RBO (p = 0.95) of the
 * rankings (approx-qos rbo-mean).
 *
 * Knobs:
 *  - index_doc:   preprocessing: count every k-th token of a document (term
 *                 frequencies rescaled); state: the document's length;
 *  - term_score:  per-term scoring: 1 = no length normalisation (b = 0),
 *                 2 = saturated term frequency (idf only);
 *  - score_query: corpus subsetting: score every k-th document; state: the
 *                 number of query terms (longer queries are more robust);
 *  - terms_kept:  query-term pruning by idf: the k lowest-idf terms of the
 *                 query are dropped (at least one is kept); state: the
 *                 number of query terms;
 *  - score_slack: score-bound skipping (MaxScore over the forward index):
 *                 query terms are scored in decreasing order of their
 *                 score bound idf * (k1 + 1), and a document is left as
 *                 soon as its partial score plus the bound of its unscored
 *                 terms, divided by the slack, cannot reach the current
 *                 top-k threshold (the 100th best full score so far).
 *                 Slack 1 keeps the top k (rank-safe: only the summation
 *                 order changes); larger slacks skip more. State: the
 *                 number of query terms.
 * Value 0 of every knob is the exact kernel (the same code, the same
 * output).
 *
 * Built with -DBM25_INVERTED (clang only, no knobs), the ranking runs over an
 * inverted index instead of the forward one: the strongest exact peer we
 * have, with the same output (benchmarks/bm25_peer.py). */
#include "../common/bench.h"

enum { TOP = 100, VOCAB = 30000, HASH = 1 << 17, MAX_QTERMS = 8 };
static const double K1 = 1.5, B = 0.75;

typedef struct {
  int term;
  float tf;
} posting;

/* The vocabulary: open addressing from word text to term id. */
static const char *hkey[HASH];
static int hid[HASH], nterms;

static int word_len(const char *w) {
  int n = 0;
  while (w[n] != ' ' && w[n] != '\n' && w[n])
    n++;
  return n;
}

static unsigned hash_word(const char *w, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++)
    h = (h ^ (unsigned char)w[i]) * 16777619u;
  return h;
}

/* Term id of the word at `w`; new words get the next id when `insert`. */
static int lookup(const char *w, int insert) {
  int n = word_len(w);
  unsigned h = hash_word(w, n) & (HASH - 1);
  while (hkey[h]) {
    if (word_len(hkey[h]) == n && !memcmp(hkey[h], w, n))
      return hid[h];
    h = (h + 1) & (HASH - 1);
  }
  if (!insert)
    return -1;
  hkey[h] = w;
  return hid[h] = nterms++;
}

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [150, 400]
//   thresholds_lower: [60, 200]
//   thresholds_upper: [300, 2000]
//   decisions: [0, 0, 0]
//   decision_values: [0, 2, 3, 4, 8]
// }
int index_doc(const char *text, const int *starts, int nwords, float *scratch,
              int *touched, int length) {
  int ntouched = 0, counted = 0;
  for (int w = 0; w < nwords; w++) {
    int t = lookup(text + starts[w], 1);
    if (scratch[t] == 0)
      touched[ntouched++] = t;
    scratch[t] += 1;
    counted++;
  }
  float scale = (float)nwords / counted;
  for (int i = 0; i < ntouched; i++)
    scratch[touched[i]] *= scale;
  return ntouched;
}

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2]
double term_score(double tf, double dl, double avgdl, double idf) {
  return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avgdl));
}
double approx_term_score_1(double tf, double dl, double avgdl, double idf) {
  return idf * tf * (K1 + 1) / (tf + K1);
}
double approx_term_score_2(double tf, double dl, double avgdl, double idf) {
  return tf > 0 ? idf : 0;
}

static double tf_of(const posting *p, int n, int term) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (p[mid].term == term)
      return p[mid].tf;
    if (p[mid].term < term)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return 0;
}

// @approx:decision_tree {
//   transform_type: loop_perforate
//   state_indices: [-1]
//   thresholds: [3]
//   thresholds_lower: [2]
//   thresholds_upper: [6]
//   decisions: [0, 0]
//   decision_values: [0, 2, 3, 4]
// }
void score_query(const int *qterms, const double *idf, int nq,
                 posting *const *docs, const int *ndoc, const int *len,
                 int ndocs, double avgdl, double *score, int qlen) {
  for (int d = 0; d < ndocs; d++) {
    double s = 0;
    for (int k = 0; k < nq; k++) {
      double tf = tf_of(docs[d], ndoc[d], qterms[k]);
      if (tf > 0)
        s += term_score(tf, len[d], avgdl, idf[k]);
    }
    score[d] = s;
  }
}

/* Query-term pruning: how many of the query's terms are kept (the rest,
 * lowest idf first, are dropped). */
// @approx:decision_tree {
//   transform_type: func_substitute
//   state_indices: [-1]
//   thresholds: [4]
//   thresholds_lower: [3]
//   thresholds_upper: [6]
//   decisions: [0, 0]
//   decision_values: [0, 1, 2, 3]
// }
int terms_kept(int nq) { return nq; }
int approx_terms_kept_1(int nq) { return nq > 1 ? nq - 1 : nq; }
int approx_terms_kept_2(int nq) { return nq > 2 ? nq - 2 : 1; }
int approx_terms_kept_3(int nq) { return nq > 3 ? nq - 3 : 1; }

/* Score-bound skipping: the slack of the bound (0: every term of every
 * document is scored, as the exact kernel does). */
// @approx:decision_tree {
//   transform_type: func_substitute
//   state_indices: [-1]
//   thresholds: [4]
//   thresholds_lower: [3]
//   thresholds_upper: [6]
//   decisions: [0, 0]
//   decision_values: [0, 1, 2, 3, 4]
// }
double score_slack(int nq) { return 0; }
double approx_score_slack_1(int nq) { return 1; }
double approx_score_slack_2(int nq) { return 1.5; }
double approx_score_slack_3(int nq) { return 1.75; }
double approx_score_slack_4(int nq) { return 2; }

/* The smallest of the best scores so far (a min-heap of at most TOP). */
static void heap_push(double *heap, int *n, double v) {
  int i;
  if (*n < TOP) {
    for (i = (*n)++; i > 0 && heap[(i - 1) / 2] > v; i = (i - 1) / 2)
      heap[i] = heap[(i - 1) / 2];
    heap[i] = v;
    return;
  }
  if (v <= heap[0])
    return;
  for (i = 0;;) { /* replace the minimum, sift down */
    int c = 2 * i + 1;
    if (c >= TOP)
      break;
    if (c + 1 < TOP && heap[c + 1] < heap[c])
      c++;
    if (heap[c] >= v)
      break;
    heap[i] = heap[c];
    i = c;
  }
  heap[i] = v;
}

/* score_query with score-bound skipping at `slack` (>= 1). */
static void score_query_bounded(const int *qterms, const double *idf, int nq,
                                posting *const *docs, const int *ndoc,
                                const int *len, int ndocs, double avgdl,
                                double *score, double slack) {
  int order[MAX_QTERMS];
  double bound[MAX_QTERMS], rest[MAX_QTERMS + 1], heap[TOP], theta = 0;
  int nheap = 0;
  for (int k = 0; k < nq; k++) { /* decreasing bound */
    bound[k] = idf[k] * (K1 + 1); /* every term_score variant's bound */
    int j = k;
    while (j > 0 && bound[order[j - 1]] < bound[k]) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = k;
  }
  rest[nq] = 0;
  for (int k = nq - 1; k >= 0; k--)
    rest[k] = rest[k + 1] + bound[order[k]] / slack;
  for (int d = 0; d < ndocs; d++) {
    double s = 0;
    int k = 0;
    for (; k < nq && s + rest[k] >= theta; k++) {
      double tf = tf_of(docs[d], ndoc[d], qterms[order[k]]);
      if (tf > 0)
        s += term_score(tf, len[d], avgdl, idf[order[k]]);
    }
    score[d] = s;
    if (k == nq && s > theta) {
      heap_push(heap, &nheap, s);
      if (nheap == TOP)
        theta = heap[0];
    }
  }
}

static int cmp_posting(const void *a, const void *b) {
  return ((const posting *)a)->term - ((const posting *)b)->term;
}

static void word_of(int id, char *buf) { /* "w" + base-26 digits */
  int n = 0;
  char tmp[16];
  do {
    tmp[n++] = (char)('a' + id % 26);
    id /= 26;
  } while (id);
  buf[0] = 'w';
  for (int i = 0; i < n; i++)
    buf[1 + i] = tmp[n - 1 - i];
  buf[1 + n] = 0;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv);
  static const int sizes[] = {400, 6000, 90000}, queries[] = {20, 50, 100};
  int ndocs = sizes[a.size], nq = queries[a.size];
  bench_seed(3, a.instance);
  double *cdf = bench_zipf_cdf(VOCAB, 1.1);
  /* The corpus: documents of Pareto-distributed length (minimum 40). */
  long cap = 1 << 20, used = 0;
  char *text = malloc(cap);
  long *doc_start = malloc(sizeof(long) * (ndocs + 1));
  char word[16];
  for (int d = 0; d < ndocs; d++) {
    doc_start[d] = used;
    int n = (int)(40 / pow(1 - bench_uniform(), 1 / 1.5));
    if (n > 3000)
      n = 3000;
    for (int w = 0; w < n; w++) {
      word_of(bench_zipf(cdf, VOCAB), word);
      int l = (int)strlen(word);
      if (used + l + 2 > cap)
        text = realloc(text, cap *= 2);
      memcpy(text + used, word, l);
      used += l;
      text[used++] = w + 1 < n ? ' ' : '\n';
    }
  }
  doc_start[ndocs] = used;
  /* Queries: 2-6 mid-frequency terms. */
  char (*qwords)[MAX_QTERMS][16] = malloc(sizeof *qwords * nq);
  int *qn = malloc(sizeof(int) * nq);
  for (int q = 0; q < nq; q++) {
    qn[q] = 2 + (int)(bench_u64() % 5);
    for (int k = 0; k < qn[q]; k++)
      word_of(20 + bench_zipf(cdf, 2000), qwords[q][k]);
  }

  int maxw = 3000;
  int *starts = malloc(sizeof(int) * maxw), *touched = malloc(sizeof(int) * VOCAB * 2);
  float *scratch = calloc(VOCAB * 2, sizeof(float));
  posting **docs = malloc(sizeof(posting *) * ndocs);
  int *ndoc = malloc(sizeof(int) * ndocs), *len = malloc(sizeof(int) * ndocs);
  int *df = calloc(VOCAB * 2, sizeof(int));
  double *score = malloc(sizeof(double) * ndocs);
  int (*top)[TOP] = malloc(sizeof *top * nq);

  double t0 = bench_now();
  /* Preprocessing: tokenize and index every document. */
  long total = 0;
  for (int d = 0; d < ndocs; d++) {
    const char *doc = text + doc_start[d];
    int nw = 0;
    long end = doc_start[d + 1] - doc_start[d];
    for (long i = 0; i < end; i++)
      if (i == 0 || doc[i - 1] == ' ')
        starts[nw++] = (int)i;
    int nt = index_doc(doc, starts, nw, scratch, touched, nw);
    docs[d] = malloc(sizeof(posting) * nt);
    for (int i = 0; i < nt; i++) {
      docs[d][i].term = touched[i];
      docs[d][i].tf = scratch[touched[i]];
      scratch[touched[i]] = 0;
      df[touched[i]]++;
    }
#ifndef BM25_INVERTED
    qsort(docs[d], nt, sizeof(posting), cmp_posting);
#endif
    ndoc[d] = nt;
    len[d] = nw;
    total += nw;
  }
  double avgdl = (double)total / ndocs;
#ifdef BM25_INVERTED
  /* The exact peer (benchmarks/bm25_peer.py): the postings transposed into
   * an inverted index, term by term in document order. */
  long *first = malloc(sizeof(long) * (nterms + 1)), np = 0;
  for (int t = 0; t < nterms; t++)
    first[t] = np, np += df[t];
  first[nterms] = np;
  long *fill = malloc(sizeof(long) * nterms);
  memcpy(fill, first, sizeof(long) * nterms);
  int *inv_doc = malloc(sizeof(int) * (np + 1));
  float *inv_tf = malloc(sizeof(float) * (np + 1));
  for (int d = 0; d < ndocs; d++)
    for (int i = 0; i < ndoc[d]; i++) {
      long p = fill[docs[d][i].term]++;
      inv_doc[p] = d;
      inv_tf[p] = docs[d][i].tf;
    }
#endif
  /* Ranking. */
  for (int q = 0; q < nq; q++) {
    int terms[MAX_QTERMS], n = 0;
    double idf[MAX_QTERMS];
    for (int k = 0; k < qn[q]; k++) {
      int t = lookup(qwords[q][k], 0);
      if (t < 0)
        continue;
      terms[n] = t;
      idf[n++] = log((ndocs - df[t] + 0.5) / (df[t] + 0.5) + 1);
    }
    for (int keep = n > 0 ? terms_kept(n) : 0; n > keep; n--) {
      int low = 0; /* drop the lowest-idf term, keeping the others' order */
      for (int k = 1; k < n; k++)
        if (idf[k] < idf[low])
          low = k;
      for (int k = low; k + 1 < n; k++) {
        terms[k] = terms[k + 1];
        idf[k] = idf[k + 1];
      }
    }
    for (int d = 0; d < ndocs; d++)
      score[d] = 0;
#ifdef BM25_INVERTED
    /* Every document's terms are added in query order, as score_query adds
     * them: the same sums, the same output. */
    for (int k = 0; k < n; k++)
      for (long p = first[terms[k]]; p < first[terms[k] + 1]; p++)
        score[inv_doc[p]] +=
            term_score(inv_tf[p], len[inv_doc[p]], avgdl, idf[k]);
    bench_top_k(score, ndocs, TOP, top[q]);
    continue;
#endif
    double slack = score_slack(n);
    if (slack > 0)
      score_query_bounded(terms, idf, n, docs, ndoc, len, ndocs, avgdl, score,
                          slack);
    else
      score_query(terms, idf, n, docs, ndoc, len, ndocs, avgdl, score, n);
    bench_top_k(score, ndocs, TOP, top[q]);
  }
  double t = bench_now() - t0;

  bench_finish_rankings(a.output, &top[0][0], nq, TOP, t);
  return 0;
}
