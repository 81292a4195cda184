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
 *                 number of query terms (longer queries are more robust). */
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
    qsort(docs[d], nt, sizeof(posting), cmp_posting);
    ndoc[d] = nt;
    len[d] = nw;
    total += nw;
  }
  double avgdl = (double)total / ndocs;
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
    for (int d = 0; d < ndocs; d++)
      score[d] = 0;
    score_query(terms, idf, n, docs, ndoc, len, ndocs, avgdl, score, n);
    bench_top_k(score, ndocs, TOP, top[q]);
  }
  double t = bench_now() - t0;

  bench_finish_rankings(a.output, &top[0][0], nq, TOP, t);
  return 0;
}
