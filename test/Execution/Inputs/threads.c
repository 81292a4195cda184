/* Driver of threads.mlir: checks each function against a C reference and
 * prints a digest of its output bits (the same on any number of threads). */
#include "check.h"
#include <stdint.h>
#include <string.h>

typedef struct { void *alloc, *aligned; int64_t offset, sizes[1], strides[1]; } M1;
typedef struct { void *alloc, *aligned; int64_t offset, sizes[2], strides[2]; } M2;

void _mlir_ciface_layer(M2 *r, M2 *x, M2 *w, M1 *b);
void _mlir_ciface_row_sums(M1 *r, M2 *x);
void _mlir_ciface_imm(M2 *r, M2 *a, M2 *b);
void _mlir_memref_to_llvm_free(void *);

static M1 m1(void *p, int64_t n) { M1 m = {p, p, 0, {n}, {1}}; return m; }
static M2 m2(void *p, int64_t r, int64_t c) {
  M2 m = {p, p, 0, {r, c}, {c, 1}};
  return m;
}

static unsigned seed = 12345;
static float rnd(void) { /* uniform in [-1, 1) */
  seed = seed * 1103515245u + 12345u;
  return (float)((seed >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

/* Every element within `tol` (relative to the reference's magnitude). */
static void expect_close(const char *what, const float *got, const double *want,
                         int n, double tol) {
  ++checks;
  for (int i = 0; i < n; ++i)
    if (!(fabs(got[i] - want[i]) <= tol * (1.0 + fabs(want[i])))) {
      ++failures;
      printf("FAIL %s[%d]: got %.9g, want %.9g\n", what, i, got[i], want[i]);
      return;
    }
}

enum { M = 64, K = 128, N = 256, ROWS = 512, COLS = 384 };
static float x[M * K], w[K * N], b[N], big[ROWS * COLS];
static int8_t qa[M * K], qb[K * N];
static double want[ROWS * COLS];

int main(void) {
  for (int i = 0; i < M * K; ++i) x[i] = rnd();
  for (int i = 0; i < K * N; ++i) w[i] = rnd() * 0.1f;
  for (int i = 0; i < N; ++i) b[i] = rnd();
  for (int i = 0; i < ROWS * COLS; ++i) big[i] = rnd();
  for (int i = 0; i < M * K; ++i) qa[i] = (int8_t)(rnd() * 127);
  for (int i = 0; i < K * N; ++i) qb[i] = (int8_t)(rnd() * 127);

  M2 r2, xm = m2(x, M, K), wm = m2(w, K, N);
  M1 r1, bm = m1(b, N);
  _mlir_ciface_layer(&r2, &xm, &wm, &bm);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += (double)x[i * K + k] * w[k * N + j];
      want[i * N + j] = tanh(s + b[j]);
    }
  expect_close("layer", r2.aligned, want, M * N, 1e-5);
  digest("layer", r2.aligned, sizeof(float) * M * N);
  _mlir_memref_to_llvm_free(r2.alloc);

  M2 bigm = m2(big, ROWS, COLS);
  _mlir_ciface_row_sums(&r1, &bigm);
  for (int i = 0; i < ROWS; ++i) {
    double s = 0;
    for (int j = 0; j < COLS; ++j)
      s += big[i * COLS + j];
    want[i] = s;
  }
  expect_close("row_sums", r1.aligned, want, ROWS, 1e-5);
  digest("row_sums", r1.aligned, sizeof(float) * ROWS);
  _mlir_memref_to_llvm_free(r1.alloc);

  M2 am = m2(qa, M, K), bq = m2(qb, K, N);
  _mlir_ciface_imm(&r2, &am, &bq);
  ++checks;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t s = 0;
      for (int k = 0; k < K; ++k)
        s += qa[i * K + k] * qb[k * N + j];
      if (((int32_t *)r2.aligned)[i * N + j] != s) {
        ++failures;
        printf("FAIL imm[%d][%d]: got %d, want %d\n", i, j,
               ((int32_t *)r2.aligned)[i * N + j], s);
        i = M;
        break;
      }
    }
  digest("imm", r2.aligned, sizeof(int32_t) * M * N);
  _mlir_memref_to_llvm_free(r2.alloc);
  return finish("threads");
}
