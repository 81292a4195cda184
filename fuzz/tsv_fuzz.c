/*===- tsv_fuzz.c - libFuzzer target: the compound systems' TSV readers ---===*
 * Any bytes as the questions file and as the passages file of a compound
 * program (rag.h): read, or a located error (the program's exit, caught
 * here); a read file has no NUL byte, questions within their limit and
 * passages with a title and a text. */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static jmp_buf fuzz_exited;
static void fuzz_exit(int code) {
  (void)code;
  longjmp(fuzz_exited, 1);
}
/* What the readers allocate is kept by the program (or dropped at its
 * exit): tracked here and freed after each input, so memory stays flat. */
static void **fuzz_live;
static size_t fuzz_nlive, fuzz_cap;
static void fuzz_track(void *p) {
  if (!p)
    return;
  if (fuzz_nlive == fuzz_cap) {
    fuzz_cap = fuzz_cap ? 2 * fuzz_cap : 64;
    fuzz_live = (void **)realloc(fuzz_live, fuzz_cap * sizeof *fuzz_live);
  }
  fuzz_live[fuzz_nlive++] = p;
}
static void fuzz_forget(void *p) {
  for (size_t i = 0; i < fuzz_nlive; i++)
    if (fuzz_live[i] == p) {
      fuzz_live[i] = fuzz_live[--fuzz_nlive];
      return;
    }
}
static void *fuzz_malloc(size_t n) {
  void *p = malloc(n);
  fuzz_track(p);
  return p;
}
static void *fuzz_realloc(void *old, size_t n) {
  void *p = realloc(old, n);
  if (p) {
    fuzz_forget(old);
    fuzz_track(p);
  }
  return p;
}
static void fuzz_free(void *p) {
  fuzz_forget(p);
  free(p);
}
#define exit(code) fuzz_exit(code)
#define malloc(n) fuzz_malloc(n)
#define realloc(p, n) fuzz_realloc(p, n)
#define free(p) fuzz_free(p)
#include "../benchmarks/compound/common/rag.h"
#undef exit
#undef malloc
#undef realloc
#undef free

int passage_words(void) { return 100; }
int answer_tokens(void) { return 8; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[] = "/tmp/approx-tsv-fuzz-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, data, size) != (ssize_t)size)
    abort();
  close(fd);
  rag_question = -1;
  if (!setjmp(fuzz_exited)) {
    char **q;
    int n = rag_read_questions(path, &q);
    for (int i = 0; i < n; i++)
      if (!*q[i] || strlen(q[i]) > RAG_QUESTION_MAX || strchr(q[i], '\t'))
        abort();
  }
  if (!setjmp(fuzz_exited)) {
    int n = rag_read_passages(path, 1);
    for (int d = 0; d < n; d++)
      if (!*ptext[d] || strchr(ptitle[d], '\t') || strchr(ptext[d], '\t'))
        abort();
  }
  unlink(path);
  for (size_t i = 0; i < fuzz_nlive; i++)
    free(fuzz_live[i]);
  fuzz_nlive = 0;
  return 0;
}
