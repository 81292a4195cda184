/* The kb system's query embedder: each build of all-MiniLM-L6-v2 compiled by
 * our ML route (common/minilm_embedder.h; OpenMP threads, OMP_NUM_THREADS)
 * against the same model's GGUF run by llama.cpp (allm_embed_batch, all
 * cores unless APPROX_LLM_THREADS says), on real questions.
 *
 *   embed_bench --embedder DIR --models DIR --questions FILE [--reps N]
 *               [--passages FILE --embeddings FILE]
 *
 * Prints one row per embedder: median time over N passes (default 5) of
 * embedding every question, its ratio to llama.cpp's and to our exact
 * build's, and the worst and mean cosine similarity of its embeddings to
 * llama.cpp's. With the corpus (the kb system's --passages and
 * --embeddings), also what the embedder changes in retrieval: the kb
 * kernel's exact top 5 passages per question against those of llama.cpp's
 * query embedding (questions with the same top passage; mean overlap of
 * the top 5). Plain C, built with the project's compiler (no knobs):
 *   cc -O2 embed_bench.c -I runtime/llm/include -L build/lib -lapprox_llm */
#include "../common/rag.h"
/* (after rag.h, which they need) */
#include "../common/kb_retrieval.h"
#include "../common/minilm_embedder.h"

/* rag.h's knob hooks (the systems' prompts); unused here. */
int passage_words(void) { return 0; }
int answer_tokens(void) { return 0; }

enum { TOP = 5 };

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  rag_program = "embed_bench";
  const char *embedder_dir = 0, *models = 0, *questions = 0, *passages = 0, *embeddings = 0;
  int reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--embedder"))
      embedder_dir = argv[i + 1];
    else if (!strcmp(argv[i], "--models"))
      models = argv[i + 1];
    else if (!strcmp(argv[i], "--questions"))
      questions = argv[i + 1];
    else if (!strcmp(argv[i], "--passages"))
      passages = argv[i + 1];
    else if (!strcmp(argv[i], "--embeddings"))
      embeddings = argv[i + 1];
    else if (!strcmp(argv[i], "--reps"))
      reps = atoi(argv[i + 1]);
    else
      embedder_dir = 0, i = argc;
  }
  if (!embedder_dir || !models || !questions || reps < 1 || argc % 2 == 0 ||
      !passages != !embeddings) {
    fprintf(stderr, "usage: embed_bench --embedder DIR --models DIR "
                    "--questions FILE [--reps N] "
                    "[--passages FILE --embeddings FILE]\n");
    return 2;
  }
  char **q;
  int n = rag_read_questions(questions, &q);
  static kb_embedder e;
  kb_load_minilm(&e, models, embedder_dir);
  allm_model *gguf = kb_load_embedder(models);
  float *ref = malloc(sizeof(float) * (size_t)n * DIM),
        *v = malloc(sizeof(float) * (size_t)n * DIM);
  double *t = malloc(sizeof(double) * reps), base = 0, exact = 0;
  kb_index index;
  int *ref_top = malloc(sizeof(int) * n * TOP), top[TOP], scored;
  if (passages)
    index = kb_build(embeddings, rag_read_passages(passages, TOP));
  const char *threads = getenv("APPROX_LLM_THREADS"), *omp = getenv("OMP_NUM_THREADS");
  printf("%d questions; median of %d passes; ours on %s%s, llama.cpp on %s%s\n", n, reps,
         omp ? omp : "all cores", omp ? " thread(s) (OMP_NUM_THREADS)" : "",
         threads ? threads : "all cores", threads ? " thread(s) (APPROX_LLM_THREADS)" : "");
  printf("| embedder | time (ms) | vs llama.cpp | vs ours exact | worst cosine "
         "| mean cosine |%s\n"
         "|---|---|---|---|---|---|%s\n",
         passages ? " same top passage | top-5 overlap |" : "", passages ? "---|---|" : "");
  for (int b = -1; b < e.nbuilds; b++) {
    for (int r = 0; r < reps; r++) {
      double t0 = bench_now();
      if (b < 0) {
        if (allm_embed_batch(gguf, (const char *const *)q, n, ref, (size_t)n * DIM) < 0)
          die("%s", allm_last_error());
      } else {
        kb_minilm_embed(&e, b, (const char *const *)q, n, v);
      }
      t[r] = bench_now() - t0;
    }
    qsort(t, reps, sizeof *t, cmp_double);
    double med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
    if (b < 0) {
      base = med;
      printf("| llama.cpp (GGUF f32) | %.1f | 1.00x | | 1 | 1 |%s\n", med * 1e3,
             passages ? " 100 % | 5.00 |" : "");
      for (int i = 0; passages && i < n; i++)
        kb_search(&index, ref + (size_t)i * DIM, TOP, ref_top + i * TOP, &scored);
      continue;
    }
    if (b == 0)
      exact = med;
    double worst = 1, sum = 0;
    for (int i = 0; i < n; i++) {
      double c = dot(ref + (size_t)i * DIM, v + (size_t)i * DIM);
      sum += c;
      worst = c < worst ? c : worst;
    }
    printf("| ours: %s | %.1f | %.2fx | %.2fx | %.5f | %.5f |", e.names[b], med * 1e3, base / med,
           exact / med, worst, sum / n);
    if (passages) {
      int same = 0, overlap = 0;
      for (int i = 0; i < n; i++) {
        kb_search(&index, v + (size_t)i * DIM, TOP, top, &scored);
        same += top[0] == ref_top[i * TOP];
        for (int a = 0; a < TOP; a++)
          for (int c = 0; c < TOP; c++)
            overlap += top[a] == ref_top[i * TOP + c];
      }
      printf(" %.0f %% | %.2f |", 100.0 * same / n, (double)overlap / n);
    }
    printf("\n");
  }
  if (e.truncated)
    printf("%d questions truncated to %d tokens\n", e.truncated / e.nbuilds / reps,
           e.seqs[e.nseqs - 1]);
  allm_free(gguf);
  allm_free(e.vocab);
  return 0;
}
