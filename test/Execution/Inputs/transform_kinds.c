/* Driver of transform-kinds.mlir. argv[1]: "approx" (the script's values)
 * or "exact". Predicts each result independently and checks it; the ML
 * kinds and random skipping against exact references with a QoS bound. */
#include "check.h"
#include <stdint.h>
#include <string.h>

double trunc_end(int64_t n);
double trunc_start(int64_t n);
double skip(int64_t n);
double subst(double x);
double task(_Bool c, double x);

typedef struct { float *alloc, *aligned; int64_t offset, sizes[2], strides[2]; } M2;
void _mlir_ciface_mm_int8(M2 *r, M2 *a, M2 *w);
void _mlir_ciface_mm_bf16(M2 *r, M2 *a, M2 *w);
void _mlir_memref_to_llvm_free(void *p);

/* mean of (i * 7) mod 13 over i in [lo, hi) */
static double mean_range(int64_t lo, int64_t hi) {
  double s = 0;
  for (int64_t i = lo; i < hi; ++i)
    s += (double)((i * 7) % 13);
  return s / (double)(hi - lo);
}

static unsigned seed = 7;
static float rnd(void) { /* uniform in [-1, 1) */
  seed = seed * 1103515245u + 12345u;
  return (float)((seed >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static void check_matmul(const char *what, void (*f)(M2 *, M2 *, M2 *),
                         double bound, int approx) {
  enum { M = 16, K = 64, N = 32 };
  static float a[M * K], w[K * N];
  for (int i = 0; i < M * K; ++i) a[i] = rnd();
  for (int i = 0; i < K * N; ++i) w[i] = rnd();
  M2 ma = {a, a, 0, {M, K}, {K, 1}}, mw = {w, w, 0, {K, N}, {N, 1}}, r;
  f(&r, &ma, &mw);
  double exact[M * N], got[M * N];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += (double)a[i * K + k] * w[k * N + j];
      exact[i * N + j] = s;
      got[i * N + j] = r.aligned[r.offset + i * r.strides[0] + j * r.strides[1]];
    }
  _mlir_memref_to_llvm_free(r.alloc);
  expect_qos(what, exact, got, M * N, approx ? bound : 0.999999);
  if (approx) { /* an approximation that changes nothing is no test */
    ++checks;
    if (memcmp(exact, got, sizeof exact) == 0) {
      ++failures;
      printf("FAIL %s: the result is exact\n", what);
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "approx") && strcmp(argv[1], "exact"))) {
    fprintf(stderr, "usage: %s approx|exact\n", argv[0]);
    return 2;
  }
  int approx = strcmp(argv[1], "approx") == 0;
  const int64_t sizes[] = {1, 5, 1000, 99991};
  for (int s = 0; s < 4; ++s) {
    int64_t n = sizes[s], q = (n + 3) / 4; /* ceil(n / 4) */
    char what[64];
    snprintf(what, sizeof what, "trunc_end(%lld)", (long long)n);
    expect_near(what, trunc_end(n), approx ? mean_range(0, q) : mean_range(0, n));
    snprintf(what, sizeof what, "trunc_start(%lld)", (long long)n);
    expect_near(what, trunc_start(n), approx ? mean_range(n - q, n) : mean_range(0, n));
  }
  /* Random skipping keeps about a third of 99991 iterations: the mean
   * stays near the exact one. */
  double e = mean_range(0, 99991), g = skip(99991);
  expect_qos("skip(99991)", &e, &g, 1, 0.98);
  if (!approx)
    expect_near("skip(99991)", g, e);
  const double xs[] = {-2.5, -1, 0, 0.5, 3};
  for (int i = 0; i < 5; ++i) {
    char what[64];
    snprintf(what, sizeof what, "subst(%g)", xs[i]);
    expect_near(what, subst(xs[i]), approx ? xs[i] * fabs(xs[i]) : xs[i] * xs[i]);
    snprintf(what, sizeof what, "task(1, %g)", xs[i]);
    expect_near(what, task(1, xs[i]), approx ? 3 * xs[i] : 2 * xs[i]);
    snprintf(what, sizeof what, "task(0, %g)", xs[i]);
    expect_near(what, task(0, xs[i]), 3 * xs[i]);
  }
  check_matmul("mm_int8", _mlir_ciface_mm_int8, 0.98, approx);
  check_matmul("mm_bf16", _mlir_ciface_mm_bf16, 0.99, approx);
  return finish("transform_kinds");
}
