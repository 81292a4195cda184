/* The query embedder of the LLM + RAG (kb) system (header, plain C):
 * all-MiniLM-L6-v2 compiled by our ML route (JAX -> linalg -> the approx
 * pipeline -> native code), one shared library per build, written with its
 * weights by `python -m approx_ml.embedder --out DIR` (python/approx_ml/
 * embedder.py, which owns the builds' order and the files' layout).
 *
 *   kb_embedder e;
 *   kb_load_minilm(&e, models, dir);      // before the clock starts
 *   kb_minilm_embed(&e, build, texts, n, out);   // n rows of DIM floats
 *
 * Texts are tokenized by the model's GGUF through llama.cpp (the same
 * WordPiece vocabulary; allm_tokenize), their word embeddings looked up
 * here, and embedded `batch` texts per call of the compiled encoder (the
 * batch amortises reading the weights: one text per call would spend more
 * on the weights than on the arithmetic). Shapes are static: each build is
 * compiled for a few sequence lengths, the texts are sorted by length and
 * each batch runs at the shortest length that holds its longest text. A
 * text of more tokens than the longest length keeps its first ones and its
 * [SEP], as sentence-transformers truncates; `truncated` counts them.
 * Needs rag.h (die) and kb_retrieval.h (DIM, EMBEDDING_MODEL) first. */
#ifndef APPROX_MINILM_EMBEDDER_H
#define APPROX_MINILM_EMBEDDER_H

#include <dlfcn.h>
#include <stdint.h>

/* all-MiniLM-L6-v2's encoder takes its 102 weight tensors (BERT's embeddings
 * and 6 layers, the pooler's unused pair included) after the batch's word
 * embeddings and mask. */
enum { MINILM_WEIGHTS = 102, MINILM_MAX_BUILDS = 8, MINILM_MAX_SEQS = 4, MINILM_MAX_RANK = 3 };

/* A memref descriptor of rank <= 3 as `_mlir_ciface_` functions take it:
 * sizes then strides follow the offset. */
typedef struct {
  void *allocated, *aligned;
  int64_t offset;
  int64_t dims[2 * MINILM_MAX_RANK];
} kb_memref;

#define KB_P10 void *, void *, void *, void *, void *, void *, void *, void *, void *, void *
#define KB_A10(p) (p)[0], (p)[1], (p)[2], (p)[3], (p)[4], (p)[5], (p)[6], (p)[7], (p)[8], (p)[9]
/* _mlir_ciface_minilm(result, x, mask, w0 ... w101) */
typedef void (*kb_minilm_fn)(void *, void *, void *, KB_P10, KB_P10, KB_P10, KB_P10, KB_P10, KB_P10,
                             KB_P10, KB_P10, KB_P10, KB_P10, void *, void *);

typedef struct {
  allm_model *vocab; /* the GGUF, for its tokenizer */
  int batch, nseqs, seqs[MINILM_MAX_SEQS], hidden, vocab_size, nbuilds, truncated;
  int last_build; /* the build of the last kb_minilm_embed */
  float *table;   /* every tensor, the word embeddings [vocab_size, hidden] first */
  kb_memref weights[MINILM_WEIGHTS];
  void *weight_ptrs[MINILM_WEIGHTS];
  kb_minilm_fn fn[MINILM_MAX_BUILDS][MINILM_MAX_SEQS];
  void (*release[MINILM_MAX_BUILDS][MINILM_MAX_SEQS])(void *);
  char names[MINILM_MAX_BUILDS][32];
} kb_embedder;

static void kb_memref_init(kb_memref *m, void *data, int rank, const int64_t *sizes) {
  m->allocated = m->aligned = data;
  m->offset = 0;
  int64_t stride = 1;
  for (int k = rank - 1; k >= 0; k--) {
    m->dims[k] = sizes[k];
    m->dims[rank + k] = stride;
    stride *= sizes[k];
  }
}

/* Reads DIR/embedder.txt and DIR/weights.f32, opens DIR/minilm-<k>-<seq>.so
 * for every build and sequence length and the tokenizer of
 * MODELS/EMBEDDING_MODEL; a missing or malformed file is a located error. */
static void kb_load_minilm(kb_embedder *e, const char *models, const char *dir) {
  char path[4096], line[512], name[256];
  memset(e, 0, sizeof *e);
  snprintf(path, sizeof path, "%s/embedder.txt", dir);
  FILE *f = fopen(path, "r");
  if (!f)
    die("cannot read '%s' (written by python -m approx_ml.embedder --out %s)", path, dir);
  int ln = 0, ntensors = -1, nt = 0;
  int64_t total = 0, shapes[MINILM_WEIGHTS + 1][MINILM_MAX_RANK];
  int ranks[MINILM_WEIGHTS + 1];
  while (fgets(line, sizeof line, f)) {
    ln++;
    int k, rank;
    long long d[MINILM_MAX_RANK] = {0, 0, 0};
    if (ln == 1 && strcmp(line, "approx-minilm-embedder 1\n"))
      die("%s:1: not an embedder manifest of format 1", path);
    if (ln <= 2)
      continue;
    if (sscanf(line, "seqs %d %d %d %d %d", &e->nseqs, &e->seqs[0], &e->seqs[1], &e->seqs[2],
               &e->seqs[3]) >= 2) {
      if (e->nseqs < 1 || e->nseqs > MINILM_MAX_SEQS)
        die("%s:%d: %d sequence lengths (1 to %d)", path, ln, e->nseqs, MINILM_MAX_SEQS);
      for (int i = 0; i < e->nseqs; i++)
        if (e->seqs[i] < 2 || (i && e->seqs[i] <= e->seqs[i - 1]))
          die("%s:%d: sequence lengths must be increasing and at least 2", path, ln);
      continue;
    }
    if (sscanf(line, "batch %d", &e->batch) == 1 || sscanf(line, "hidden %d", &e->hidden) == 1 ||
        sscanf(line, "vocab %d", &e->vocab_size) == 1 ||
        sscanf(line, "builds %d", &e->nbuilds) == 1)
      continue;
    if (sscanf(line, "tensors %d", &ntensors) == 1) {
      if (ntensors != MINILM_WEIGHTS + 1)
        die("%s:%d: %d tensors, all-MiniLM-L6-v2's embedder has %d", path, ln, ntensors,
            MINILM_WEIGHTS + 1);
      continue;
    }
    if (sscanf(line, "tensor %255s %d %lld %lld %lld", name, &rank, &d[0], &d[1], &d[2]) >= 3) {
      if (nt >= ntensors || rank < 1 || rank > 2)
        die("%s:%d: unexpected tensor '%s' of rank %d", path, ln, name, rank);
      int64_t count = 1;
      for (int r = 0; r < rank; r++) {
        if (d[r] < 1)
          die("%s:%d: tensor '%s' has a dimension of %lld", path, ln, name, d[r]);
        shapes[nt][r] = d[r];
        count *= d[r];
      }
      ranks[nt++] = rank;
      total += count;
      continue;
    }
    if (sscanf(line, "build %d %31s", &k, name) == 2) {
      if (k < 0 || k >= e->nbuilds || k >= MINILM_MAX_BUILDS)
        die("%s:%d: build %d of %d", path, ln, k, e->nbuilds);
      snprintf(e->names[k], sizeof e->names[k], "%s", name);
      continue;
    }
    die("%s:%d: unexpected line: %s", path, ln, line);
  }
  fclose(f);
  if (e->batch < 1 || e->nseqs < 1 || e->hidden != DIM || e->nbuilds < 1 ||
      e->nbuilds > MINILM_MAX_BUILDS || nt != MINILM_WEIGHTS + 1 || ranks[0] != 2 ||
      shapes[0][0] != e->vocab_size || shapes[0][1] != DIM)
    die("%s: incomplete manifest (batch %d, %d sequence lengths, hidden %d of %d, %d tensors, "
        "%d builds)",
        path, e->batch, e->nseqs, e->hidden, DIM, nt, e->nbuilds);

  snprintf(path, sizeof path, "%s/weights.f32", dir);
  long len;
  e->table = (float *)read_all(path, &len);
  if (len != total * (long)sizeof(float))
    die("%s: %ld bytes, the manifest's tensors hold %lld", path, len,
        (long long)total * (long long)sizeof(float));
  float *at = e->table + shapes[0][0] * shapes[0][1];
  for (int t = 1; t < nt; t++) {
    kb_memref_init(&e->weights[t - 1], at, ranks[t], shapes[t]);
    e->weight_ptrs[t - 1] = &e->weights[t - 1];
    at += ranks[t] == 1 ? shapes[t][0] : shapes[t][0] * shapes[t][1];
  }

  for (int k = 0; k < e->nbuilds; k++)
    for (int s = 0; s < e->nseqs; s++) {
      snprintf(path, sizeof path, "%s/minilm-%d-%d.so", dir, k, e->seqs[s]);
      void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (!lib)
        die("cannot load the embedder build '%s': %s", path, dlerror());
      e->fn[k][s] = (kb_minilm_fn)dlsym(lib, "_mlir_ciface_minilm");
      *(void **)&e->release[k][s] = dlsym(lib, "_mlir_memref_to_llvm_free");
      if (!e->fn[k][s] || !e->release[k][s])
        die("%s: no _mlir_ciface_minilm or _mlir_memref_to_llvm_free", path);
    }
  e->vocab = rag_load_model(models, EMBEDDING_MODEL, 1);
}

/* The embeddings of `n` texts by build `build` into `out` (n rows of DIM
 * floats, L2-normalised). */
static void kb_minilm_embed(kb_embedder *e, int build, const char *const *texts, int n,
                            float *out) {
  if (build < 0 || build >= e->nbuilds)
    die("embedder build %d of %d", build, e->nbuilds);
  e->last_build = build;
  int B = e->batch, H = e->hidden, S = e->seqs[e->nseqs - 1];
  float *x = malloc(sizeof(float) * (size_t)B * S * H), *mask = malloc(sizeof(float) * B * S);
  int32_t *ids = malloc(sizeof(int32_t) * (size_t)(n ? n : 1) * S);
  int *len = malloc(sizeof(int) * (n ? n : 1)), *order = malloc(sizeof(int) * (n ? n : 1));
  /* Tokens of every text; texts in order of length (stable). */
  for (int i = 0; i < n; i++) {
    len[i] = allm_tokenize(e->vocab, texts[i], 1, ids + (size_t)i * S, S);
    if (len[i] < 0)
      die("cannot tokenize text %d: %s", i + 1, allm_last_error());
    if (len[i] > S) {
      e->truncated++;
      len[i] = S;
    }
    int j = i;
    for (; j > 0 && len[order[j - 1]] > len[i]; j--)
      order[j] = order[j - 1];
    order[j] = i;
  }
  void **w = e->weight_ptrs;
  for (int first = 0; first < n; first += B) {
    int count = n - first < B ? n - first : B, s = 0;
    while (e->seqs[s] < len[order[first + count - 1]])
      s++;
    int L = e->seqs[s];
    int64_t xs[3] = {B, L, H}, ms[2] = {B, L};
    kb_memref xm, mm, result;
    kb_memref_init(&xm, x, 3, xs);
    kb_memref_init(&mm, mask, 2, ms);
    for (int b = 0; b < B; b++) {
      int t = b < count ? order[first + b] : -1, tl = t < 0 ? 0 : len[t];
      for (int p = 0; p < L; p++) {
        int id = p < tl ? ids[(size_t)t * S + p] : 0; /* padding: [PAD]'s row, masked out */
        if (id < 0 || id >= e->vocab_size)
          die("token %d of text %d is outside the vocabulary", id, t + 1);
        memcpy(x + ((size_t)b * L + p) * H, e->table + (size_t)id * H, sizeof(float) * H);
        mask[b * L + p] = p < tl ? 1.f : 0.f;
      }
    }
    e->fn[build][s](&result, &xm, &mm, KB_A10(w), KB_A10(w + 10), KB_A10(w + 20), KB_A10(w + 30),
                    KB_A10(w + 40), KB_A10(w + 50), KB_A10(w + 60), KB_A10(w + 70), KB_A10(w + 80),
                    KB_A10(w + 90), w[100], w[101]);
    const float *r = (const float *)result.aligned + result.offset;
    int64_t rs = result.dims[2], cs = result.dims[3]; /* strides of [B, H] */
    for (int b = 0; b < count; b++)
      for (int j = 0; j < H; j++)
        out[(size_t)order[first + b] * H + j] = r[b * rs + j * cs];
    e->release[build][s](result.allocated);
  }
  free(x);
  free(mask);
  free(ids);
  free(len);
  free(order);
}

#endif
